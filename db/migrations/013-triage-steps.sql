-- What nightbench did on GitHub for a recorded triage command (src/github/triage.ts), one row per
-- step: a workflow run again after GitHub failed midway completes only the steps missing here,
-- so a bisect is dispatched and an issue closed exactly once. Facts, merged like triage_events.

CREATE TABLE triage_steps (
  event_key TEXT NOT NULL REFERENCES triage_events (key),
  step TEXT NOT NULL CHECK (step IN ('labelled', 'dispatched', 'closed')),
  at TEXT NOT NULL,
  PRIMARY KEY (event_key, step)
);
