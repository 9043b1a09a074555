-- The verdicts of the night detection judged last, kept so that the job summary, the pages and
-- `tune` read what detection said instead of judging the whole night again (3.6 s at 20,000
-- series, twice more per nightly). A stored night is used only while nothing it was judged from
-- has changed: every write to what detection reads (runs, repeats, values, episodes' judged
-- columns, machine nights, triage, declared directions) advances history_version (the triggers),
-- and a judged night keeps the version it was stored at. Issue numbers and backfill/replay marks
-- do not advance it: they change no verdict. A migration that rebuilds one of these tables must
-- create its triggers again.
CREATE TABLE history_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO history_version (id, version) VALUES (1, 0);

CREATE TABLE judged_nights (
  suite TEXT PRIMARY KEY,                    -- '' when every suite was judged together
  night TEXT NOT NULL,
  policy TEXT NOT NULL,                      -- the detection policy and nightbench version it was judged with (JSON)
  history_version INTEGER NOT NULL,          -- history_version once the night's own episode changes were written
  verdicts TEXT NOT NULL,                    -- JSON array of the night's verdicts (src/detect/judge.ts)
  machine TEXT,                              -- JSON of the night's machine finding, if any
  judged_at TEXT NOT NULL
);

CREATE TRIGGER history_version_runs_insert AFTER INSERT ON runs BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_runs_update AFTER UPDATE ON runs BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_runs_delete AFTER DELETE ON runs BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_repeats_insert AFTER INSERT ON repeats BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_repeats_update AFTER UPDATE ON repeats BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_repeats_delete AFTER DELETE ON repeats BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_results_insert AFTER INSERT ON results BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_results_update AFTER UPDATE ON results BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_results_delete AFTER DELETE ON results BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_regressions_insert AFTER INSERT ON regressions BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_regressions_update AFTER UPDATE OF kind, series_key, state, first_bad_night, last_night, recovered_night ON regressions BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_regressions_delete AFTER DELETE ON regressions BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_machine_nights_insert AFTER INSERT ON machine_nights BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_machine_nights_update AFTER UPDATE ON machine_nights BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_machine_nights_delete AFTER DELETE ON machine_nights BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_triage_events_insert AFTER INSERT ON triage_events BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_triage_events_update AFTER UPDATE ON triage_events BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_triage_events_delete AFTER DELETE ON triage_events BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_metric_directions_insert AFTER INSERT ON metric_directions BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_metric_directions_update AFTER UPDATE ON metric_directions BEGIN
  UPDATE history_version SET version = version + 1;
END;
CREATE TRIGGER history_version_metric_directions_delete AFTER DELETE ON metric_directions BEGIN
  UPDATE history_version SET version = version + 1;
END;
