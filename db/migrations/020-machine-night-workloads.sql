-- Workloads that moved the dominant way on a night, beside the series (012): a suite-wide move is
-- many workloads moving together, not one workload's several timed metrics (a slowed workload's
-- wall, work and CPU time move at once). NULL on nights judged before this column existed.
ALTER TABLE machine_nights ADD COLUMN moved_workloads INTEGER;
