-- A/B tests (src/ab): one row per test; its runs are ordinary runs of kind 'ab' that point back
-- here with the group they belong to (A the baseline, A' its independent twin, B, C candidates).
-- Recorded facts: merged between shard databases like runs.

CREATE TABLE ab_tests (
  id TEXT PRIMARY KEY,                       -- UUID
  created_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'partial', 'failed', 'incomplete')),
  config TEXT NOT NULL,                      -- JSON: the ab section, environments as loaded, groups, metric directions
  order_kind TEXT NOT NULL CHECK (order_kind IN ('blocks', 'random')),
  seed INTEGER NOT NULL,                     -- of the order and of the bootstrap
  schedule TEXT NOT NULL,                    -- JSON array of slots in the order they ran
  host TEXT,
  pid INTEGER
);

ALTER TABLE runs ADD COLUMN ab_test_id TEXT REFERENCES ab_tests (id);
ALTER TABLE runs ADD COLUMN ab_group TEXT;
CREATE INDEX runs_by_ab_test ON runs (ab_test_id);
