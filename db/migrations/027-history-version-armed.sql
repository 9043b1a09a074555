-- history_version (025) is only ever compared for equality with a version someone took (a judged
-- night's, or detection's before it judges), and it only grows: once it moved past every version
-- taken, moving it again tells nobody anything. Advanced on every repeat, it was one of the four
-- pages each of the runner's repeat commits wrote (bench/history.ts). `armed` says a version was
-- taken since it last moved (judged-night-queries.ts sets it when it takes one); a new repeat
-- advances the version only then, so a night of repeats writes it once. The other triggers still
-- advance it on every write: they are rare, and advancing more often is never wrong.

ALTER TABLE history_version ADD COLUMN armed INTEGER NOT NULL DEFAULT 1;

DROP TRIGGER history_version_repeats_insert;
CREATE TRIGGER history_version_repeats_insert AFTER INSERT ON repeats WHEN (SELECT armed FROM history_version WHERE id = 1) BEGIN
  UPDATE history_version SET version = version + 1, armed = 0;
END;
