-- What ran each run (src/runner/machine.ts): the CPU model, cores, memory and kernel, and on a
-- GitHub-hosted runner its image and version; JSON, NULL in runs recorded before this migration.
-- `machine_class` is what decides speed (src/detect/machine-class.ts: the EC2 instance type, else
-- CPU model, cores and memory, never the hostname): detection compares a night with the nights
-- of its own class when there are enough, and holds an episode that opens on a change of class.
-- Columns of `runs`, so shard databases merged from different machines keep each run's own.

ALTER TABLE runs ADD COLUMN machine TEXT;
ALTER TABLE runs ADD COLUMN machine_class TEXT;
CREATE INDEX runs_by_machine_class ON runs (machine_class);
