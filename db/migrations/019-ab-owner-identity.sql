-- An A/B test's process, named as runs and bisects name theirs (014): with its boot and start
-- time, a pid the system gave to another process after a reboot or a kill no longer keeps a dead
-- A/B test "running", and a live one is never taken for dead.
ALTER TABLE ab_tests ADD COLUMN boot_id TEXT;
ALTER TABLE ab_tests ADD COLUMN start_ticks INTEGER;
