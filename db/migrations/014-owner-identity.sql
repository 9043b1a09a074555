-- A run or bisect is declared dead only when its recorded process is gone: by pid, boot and start
-- time, as run_processes already identifies processes (006), never by a pid alone, which another
-- process may have been given since (after a reboot, or once pids wrap). NULL in rows recorded
-- before this migration: those are judged by their pid as before.

ALTER TABLE runs ADD COLUMN boot_id TEXT;          -- /proc/sys/kernel/random/boot_id of the runner's machine
ALTER TABLE runs ADD COLUMN start_ticks INTEGER;   -- field 22 of /proc/PID/stat of the runner
ALTER TABLE bisects ADD COLUMN boot_id TEXT;
ALTER TABLE bisects ADD COLUMN start_ticks INTEGER;
