-- Regression episodes found by detection (src/detect). Derived data: never merged between shard
-- databases, detection runs again on the merged history. One row per episode, from its first
-- bad night until it recovers or a maintainer accepts the new level.

CREATE TABLE regressions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  fingerprint TEXT NOT NULL UNIQUE,          -- hash of series_key and first_bad_night
  series_key TEXT NOT NULL,                  -- JSON array of the series identity (src/detect/series.ts)
  suite TEXT NOT NULL,
  workload TEXT NOT NULL,
  workload_version TEXT NOT NULL,
  metric TEXT NOT NULL,
  unit TEXT,
  direction TEXT NOT NULL CHECK (direction IN ('lower-is-better', 'higher-is-better')),
  environment_name TEXT NOT NULL,
  environment_fingerprint TEXT NOT NULL,
  provider TEXT NOT NULL,
  cluster_shape TEXT NOT NULL,
  instance_type TEXT,
  first_bad_night TEXT NOT NULL,
  first_bad_run_id TEXT NOT NULL,
  first_bad_commits TEXT NOT NULL,           -- JSON: repo -> sha
  last_good_night TEXT NOT NULL,
  last_good_run_id TEXT NOT NULL,
  last_good_commits TEXT NOT NULL,           -- JSON: repo -> sha
  baseline_median REAL NOT NULL,             -- the pre-regression level
  baseline_noise REAL NOT NULL,              -- relative noise of a nightly median in that baseline
  new_median REAL NOT NULL,                  -- the first bad night's median
  ratio REAL NOT NULL,                       -- new_median / baseline_median
  p_value REAL NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'still-regressed', 'recovered', 'accepted')),
  last_night TEXT NOT NULL,                  -- the last night that updated the episode
  latest_median REAL NOT NULL,
  nights_back INTEGER NOT NULL DEFAULT 0,    -- consecutive nights back within noise so far
  recovered_night TEXT,
  issue_number INTEGER
);
CREATE INDEX regressions_by_series ON regressions (series_key, first_bad_night);
CREATE INDEX regressions_by_state ON regressions (state);
