-- A repeat's values move into its row, as one JSON column (src/history/repeat-values.ts), and the
-- results table goes. The runner commits each repeat as it finishes, so a repeat's values are
-- always written with it, and the commit of that one transaction was the cost of recording
-- (bench/history.ts): every page a commit dirties is written to the WAL and back. A value row
-- keyed by (run UUID, workload, repeat, metric) landed at a random place of its own b-tree and
-- dirtied about 3.8 pages a commit, more than the repeat itself; in the repeat's row the values
-- add no page. Warm-up repeats keep their metrics the same way since migration 007.
--
-- `results` stays as a view of the same columns, so that SQL reading the history (the tests, the
-- bench scripts, a user's sqlite3 shell) reads what it read; nightbench writes the column.
-- Every value is carried over; run_points and the judged nights stay valid (no value changes).

ALTER TABLE repeats ADD COLUMN metric_values TEXT NOT NULL DEFAULT '[]'; -- JSON [[metric, value, unit], ...], by metric

-- Filling the new column changes no value: the triggers that drop the stored points and advance
-- the history's version on a changed repeat stay off while it runs (created again as 023 and 025 did).
DROP TRIGGER run_points_repeat_changed;
DROP TRIGGER history_version_repeats_update;
UPDATE repeats SET metric_values = v.packed
FROM (
  SELECT run_id, workload, repeat, json_group_array(json_array(metric, value, unit) ORDER BY metric) AS packed
  FROM results GROUP BY run_id, workload, repeat
) v
WHERE v.run_id = repeats.run_id AND v.workload = repeats.workload AND v.repeat = repeats.repeat;
CREATE TRIGGER run_points_repeat_changed AFTER UPDATE ON repeats BEGIN
  DELETE FROM run_points WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER history_version_repeats_update AFTER UPDATE ON repeats BEGIN
  UPDATE history_version SET version = version + 1;
END;

-- Its triggers (023's run_points_value_*, 025's history_version_results_*) go with it: a value
-- now changes only through its repeat's row, which the repeats' triggers watch.
DROP TABLE results;

CREATE VIEW results (run_id, workload, repeat, metric, value, unit) AS
  SELECT p.run_id, p.workload, p.repeat, v.value ->> 0, v.value ->> 1, v.value ->> 2
  FROM repeats p, json_each(p.metric_values) v;
