-- Nights the machine, not the code, moved (src/detect/machine-night.ts): the canary or most timed
-- series shifted together. Written by detection for each judged night (and suite, '' for every
-- suite); a regression that opens on a machine night waits a night before it is filed, and an
-- unfiled episode that began on one is no level later nights are compared with.
CREATE TABLE machine_nights (
  night TEXT NOT NULL,
  suite TEXT NOT NULL DEFAULT '',
  machine INTEGER NOT NULL CHECK (machine IN (0, 1)),
  signs TEXT NOT NULL DEFAULT '',            -- comma-separated: canary, common-mode
  direction TEXT CHECK (direction IN ('slower', 'faster')),
  canary_change REAL,
  judged_series INTEGER NOT NULL,
  moved_series INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (night, suite)
);
