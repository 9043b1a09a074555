-- Episodes a confirmation rerun did not reproduce (github.confirm): kept, shown on the pages and
-- by `detect`, never filed. A new final state, so the regressions table is rebuilt (SQLite cannot
-- change a CHECK constraint in place; as in 004, every row and id is kept).

CREATE TABLE regressions_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL DEFAULT 'regression' CHECK (kind IN ('regression', 'improvement')),
  fingerprint TEXT NOT NULL UNIQUE,
  series_key TEXT NOT NULL,
  suite TEXT NOT NULL,
  workload TEXT NOT NULL,
  workload_version TEXT NOT NULL,
  metric TEXT NOT NULL,
  unit TEXT,
  direction TEXT NOT NULL CHECK (direction IN ('lower', 'higher')),
  environment_name TEXT NOT NULL,
  environment_fingerprint TEXT NOT NULL,
  provider TEXT NOT NULL,
  cluster_shape TEXT NOT NULL,
  instance_type TEXT,
  first_bad_night TEXT NOT NULL,             -- the night the shift began (set back by the persistence path)
  first_bad_run_id TEXT NOT NULL,
  first_bad_commits TEXT NOT NULL,
  last_good_night TEXT NOT NULL,
  last_good_run_id TEXT NOT NULL,
  last_good_commits TEXT NOT NULL,
  baseline_median REAL NOT NULL,
  baseline_noise REAL NOT NULL,
  new_median REAL NOT NULL,                  -- the shifted level when found
  ratio REAL NOT NULL,
  p_value REAL NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'still-regressed', 'recovered', 'accepted', 'unconfirmed')),
  last_night TEXT NOT NULL,
  latest_median REAL NOT NULL,
  nights_back INTEGER NOT NULL DEFAULT 0,
  recovered_night TEXT,
  issue_number INTEGER
);
INSERT INTO regressions_new (id, kind, fingerprint, series_key, suite, workload, workload_version, metric, unit, direction, environment_name,
  environment_fingerprint, provider, cluster_shape, instance_type, first_bad_night, first_bad_run_id, first_bad_commits, last_good_night,
  last_good_run_id, last_good_commits, baseline_median, baseline_noise, new_median, ratio, p_value, state, last_night, latest_median,
  nights_back, recovered_night, issue_number)
SELECT id, kind, fingerprint, series_key, suite, workload, workload_version, metric, unit, direction, environment_name,
  environment_fingerprint, provider, cluster_shape, instance_type, first_bad_night, first_bad_run_id, first_bad_commits, last_good_night,
  last_good_run_id, last_good_commits, baseline_median, baseline_noise, new_median, ratio, p_value, state, last_night, latest_median,
  nights_back, recovered_night, issue_number
FROM regressions;
DROP TABLE regressions;
ALTER TABLE regressions_new RENAME TO regressions;
CREATE INDEX regressions_by_series ON regressions (series_key, first_bad_night);
CREATE INDEX regressions_by_state ON regressions (state);
