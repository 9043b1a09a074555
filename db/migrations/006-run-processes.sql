-- The process groups a run started on its machine (cluster processes and client commands), so
-- that the next start can end what a runner that died left behind (src/runner/leftovers.ts).
-- A pid is recycled, so a process is identified by its boot and its start time as well.
-- Operational facts of one machine: not merged between shard databases.

CREATE TABLE run_processes (
  run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  name TEXT NOT NULL,                        -- scheduler, worker-1, client
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  pgid INTEGER NOT NULL,                     -- the process leads its own group
  boot_id TEXT NOT NULL,                     -- /proc/sys/kernel/random/boot_id
  start_ticks INTEGER NOT NULL,              -- field 22 of /proc/PID/stat: clock ticks after boot
  started_at TEXT NOT NULL,
  -- NULL while its run owns it; 'stopped' by its own runner, 'ended' by a later start because its
  -- runner had died, 'gone' when a later start found it already ended.
  fate TEXT CHECK (fate IN ('stopped', 'ended', 'gone')),
  PRIMARY KEY (host, boot_id, pid, start_ticks)
);
CREATE INDEX run_processes_unsettled ON run_processes (host) WHERE fate IS NULL;
CREATE INDEX run_processes_by_run ON run_processes (run_id);
