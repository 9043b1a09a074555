-- Warm-up repeats (config warmupRepeats): run on each fresh cluster before the measured ones and
-- recorded here, apart from `repeats`, so no query that compares, charts or summarises repeats can
-- take one for a measurement. Their metrics are kept as JSON for whoever wants to see what a
-- warm-up costs.

CREATE TABLE warmup_repeats (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  workload TEXT NOT NULL,
  warmup INTEGER NOT NULL,                   -- 1-based, over all fresh clusters of the workload
  workload_version TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'timeout', 'disturbed')),
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  error TEXT,
  disturbance TEXT,
  metrics TEXT NOT NULL DEFAULT '[]',        -- JSON array of {metric, value, unit}
  PRIMARY KEY (run_id, workload, warmup)
);
