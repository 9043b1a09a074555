-- What each run's repeats and values give its series, folded per workload (src/history/
-- workload-nights.ts) and kept as one row per run: a night's detection reads 31 rows instead of
-- one per value (1.9 million at 20,000 series, where the driver's cost per row was most of the
-- night). Derived, never a fact: the first read of a run fills it, and any change to the run's
-- repeats or values drops it (the triggers), so it never says what they do not. Merges and
-- backups need not carry it. A later change of the stored form (encodeRunPoints) must come with a
-- migration that empties the table.
CREATE TABLE run_points (
  run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  points TEXT NOT NULL                       -- JSON, see encodeRunPoints
);

CREATE TRIGGER run_points_repeat_added AFTER INSERT ON repeats BEGIN
  DELETE FROM run_points WHERE run_id = NEW.run_id;
END;
CREATE TRIGGER run_points_repeat_changed AFTER UPDATE ON repeats BEGIN
  DELETE FROM run_points WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER run_points_repeat_removed AFTER DELETE ON repeats BEGIN
  DELETE FROM run_points WHERE run_id = OLD.run_id;
END;
CREATE TRIGGER run_points_value_added AFTER INSERT ON results BEGIN
  DELETE FROM run_points WHERE run_id = NEW.run_id;
END;
CREATE TRIGGER run_points_value_changed AFTER UPDATE ON results BEGIN
  DELETE FROM run_points WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER run_points_value_removed AFTER DELETE ON results BEGIN
  DELETE FROM run_points WHERE run_id = OLD.run_id;
END;
