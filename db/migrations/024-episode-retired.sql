-- A final state for episodes whose series is no longer measured: no ok result in the whole
-- lookback of its suite (the workload removed or renamed, its environment retired, or failing
-- every night since). Such an episode used to stay active forever, and a new issue tracker (a
-- replay's folder, another repository) filed it years later as "found 831 nights later".
-- SQLite cannot alter a CHECK constraint; widening it in the stored schema is the documented
-- procedure for a change that leaves every stored row valid (as in 008).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''accepted'', ''unconfirmed''))', '''accepted'', ''unconfirmed'', ''retired''))')
  WHERE type = 'table' AND name = 'regressions';
PRAGMA writable_schema = RESET;
