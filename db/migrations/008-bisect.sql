-- Bisects (src/bisect): one row per bisect or rerun of a regression or failure. Their repeats are
-- ordinary runs of kind 'bisect' that point back here; they are never part of a nightly series.
-- Recorded facts: merged between shard databases like runs.

-- SQLite cannot alter a CHECK constraint; widening it in the stored schema is the documented
-- procedure for a change that leaves every stored row valid (sqlite.org/lang_altertable.html).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'kind IN (''nightly'', ''run'', ''ab'')', 'kind IN (''nightly'', ''run'', ''ab'', ''bisect'')')
  WHERE type = 'table' AND name = 'runs';
PRAGMA writable_schema = RESET;

CREATE TABLE bisects (
  id TEXT PRIMARY KEY,                       -- UUID
  created_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'failed', 'incomplete')),
  mode TEXT NOT NULL CHECK (mode IN ('bisect', 'rerun')),
  judged TEXT NOT NULL CHECK (judged IN ('metric', 'pass-fail')),
  episode_id INTEGER,                        -- regressions.id, when started from an episode
  issue_number INTEGER,
  suite TEXT NOT NULL,
  workload TEXT NOT NULL,
  metric TEXT NOT NULL,
  good_commits TEXT NOT NULL,                -- JSON: repo -> sha, the last good state
  bad_commits TEXT NOT NULL,                 -- JSON: repo -> sha, the first bad state
  outcome TEXT CHECK (outcome IN ('culprit', 'spread', 'not-reproduced', 'ambiguous')),
  culprit_repo TEXT,
  culprit_sha TEXT,
  result TEXT,                               -- JSON: every step's figures and the confirmation
  cluster_seconds REAL,
  host TEXT,
  pid INTEGER
);
CREATE INDEX bisects_by_workload ON bisects (suite, workload);

ALTER TABLE runs ADD COLUMN bisect_id TEXT REFERENCES bisects (id);
