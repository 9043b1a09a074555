-- The history of every run: one row per run, one per repeat, one per measured value.
-- Ids of runs are UUIDs so that shard databases merge without collisions.

CREATE TABLE commits (
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  parents TEXT NOT NULL DEFAULT '',          -- space-separated shas
  author_name TEXT,
  author_email TEXT,
  authored_at TEXT,                          -- ISO 8601
  committed_at TEXT,
  subject TEXT,
  PRIMARY KEY (repo, sha)
);

CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('nightly', 'run', 'ab')),
  suite TEXT NOT NULL,
  night TEXT NOT NULL,                       -- YYYY-MM-DD the run counts for
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'partial', 'failed', 'incomplete')),
  error TEXT,
  target TEXT NOT NULL,                      -- JSON: what was tested (commits or installed versions)
  environment_name TEXT NOT NULL,
  environment_fingerprint TEXT NOT NULL,
  environment TEXT NOT NULL DEFAULT '{}',    -- JSON: interpreter, package versions, variables
  provider TEXT NOT NULL,
  cluster_shape TEXT NOT NULL,               -- comparable key, e.g. local:2x1:2GiB
  workers INTEGER NOT NULL,
  threads_per_worker INTEGER NOT NULL,
  memory_per_worker INTEGER NOT NULL,
  instance_type TEXT,
  region TEXT,
  scale REAL NOT NULL DEFAULT 1,
  harness_version TEXT NOT NULL,
  host TEXT,
  pid INTEGER,
  shard TEXT,
  cost_usd REAL,
  cluster_info TEXT NOT NULL DEFAULT '{}',   -- JSON: provider facts (start-up time, instances)
  config TEXT NOT NULL DEFAULT '{}'          -- JSON: the effective config
);
CREATE INDEX runs_by_night ON runs (suite, night);

-- The target's commit of each repository for a run (a target may be several repositories).
CREATE TABLE run_commits (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  PRIMARY KEY (run_id, repo)
);

CREATE TABLE repeats (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  workload TEXT NOT NULL,
  repeat INTEGER NOT NULL,                   -- 1-based
  workload_version TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'timeout', 'disturbed')),
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  error TEXT,                                -- tail of the workload's stderr when it failed
  disturbance TEXT,                          -- what changed in the cluster during the repeat
  PRIMARY KEY (run_id, workload, repeat)
);

CREATE TABLE results (
  run_id TEXT NOT NULL,
  workload TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  PRIMARY KEY (run_id, workload, repeat, metric),
  FOREIGN KEY (run_id, workload, repeat) REFERENCES repeats (run_id, workload, repeat) ON DELETE CASCADE
);
CREATE INDEX results_by_series ON results (workload, metric);

-- Per-process time series sampled while a repeat ran, one row per process; arrays as JSON.
CREATE TABLE samples (
  run_id TEXT NOT NULL,
  workload TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  process TEXT NOT NULL,                     -- scheduler, worker-1, ...
  host TEXT NOT NULL,
  t TEXT NOT NULL,                           -- JSON array of seconds since the repeat started
  rss TEXT NOT NULL,                         -- JSON array of bytes
  cpu TEXT NOT NULL,                         -- JSON array of cumulative CPU seconds
  PRIMARY KEY (run_id, workload, repeat, process),
  FOREIGN KEY (run_id, workload, repeat) REFERENCES repeats (run_id, workload, repeat) ON DELETE CASCADE
);
