-- Backfills (issue 28). Episodes that detection found while replaying backfilled nights are marked
-- so: nobody saw them live. A workload the target's version cannot run at all (an import that does
-- not exist yet) and a metric it cannot report are outcomes of their own, apart from repeats: they
-- are not failures (no broken-workload issue, no bisect) and never a value.

ALTER TABLE regressions ADD COLUMN found_in_backfill INTEGER NOT NULL DEFAULT 0;

CREATE TABLE unsupported_workloads (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  workload TEXT NOT NULL,
  workload_version TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL,                      -- the suite's one line, e.g. the missing import
  PRIMARY KEY (run_id, workload)
);

-- One row per run, workload and metric: the reason is said once per run, not once per repeat.
CREATE TABLE absent_metrics (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  workload TEXT NOT NULL,
  metric TEXT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (run_id, workload, metric)
);
