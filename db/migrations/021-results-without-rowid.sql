-- The results table, one row per measured value, is most of the history: stored as a rowid table
-- plus the index of its primary key plus results_by_series, every value was written into three
-- b-trees and read through two. Keyed by its primary key alone (WITHOUT ROWID), a value is
-- written once and read where it lies; nothing reads values by workload and metric without their
-- run any more (detection reads a run at a time), so results_by_series goes. Every row is kept.

CREATE TABLE results_keyed (
  run_id TEXT NOT NULL,
  workload TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  PRIMARY KEY (run_id, workload, repeat, metric),
  FOREIGN KEY (run_id, workload, repeat) REFERENCES repeats (run_id, workload, repeat) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO results_keyed (run_id, workload, repeat, metric, value, unit) SELECT run_id, workload, repeat, metric, value, unit FROM results;
DROP TABLE results;
ALTER TABLE results_keyed RENAME TO results;
