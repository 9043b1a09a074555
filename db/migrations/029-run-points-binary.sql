-- The stored points of a run (023) in a binary form instead of JSON (src/history/workload-nights.ts,
-- encodeRunPoints): a night's detection at 20,000 series parsed 74 MB of JSON and held each run's
-- parsed objects while it grouped them. The rows are derived, never a fact: the table is made again
-- empty, and the first read of each run folds and keeps it in the new form. Its triggers (023, 026)
-- name the table, not its columns, and stay.
DROP TABLE run_points;
CREATE TABLE run_points (
  run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  points BLOB NOT NULL                       -- binary, see encodeRunPoints
);
