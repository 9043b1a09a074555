-- Whose failure a failed or timed-out repeat is: `code` (the workload or the target raised, or the
-- workload passed its own time limit: a hang is a regression) or `infrastructure` (the cluster
-- did not start or could not be reset, the runner was interrupted or killed). Only code failures
-- make a workload broken; an infrastructure failure is shown with its cause and never opens an
-- issue. NULL for a repeat that did not fail.

ALTER TABLE repeats ADD COLUMN failure_class TEXT CHECK (failure_class IN ('code', 'infrastructure'));
ALTER TABLE repeats ADD COLUMN failure_cause TEXT;

-- Repeats recorded before: the runner wrote "cluster: ..." for a cluster that failed and
-- "interrupted" for a signal; every other failure was the workload's.
UPDATE repeats SET failure_class = 'infrastructure', failure_cause = 'the cluster did not start or could not be reset'
  WHERE status = 'failed' AND error LIKE 'cluster: %';
UPDATE repeats SET failure_class = 'infrastructure', failure_cause = 'the runner was interrupted'
  WHERE status = 'failed' AND error = 'interrupted';
UPDATE repeats SET failure_class = 'code', failure_cause = CASE status WHEN 'timeout' THEN 'the workload passed its time limit' ELSE 'the workload failed' END
  WHERE status IN ('failed', 'timeout') AND failure_class IS NULL;
