/**
 * Which repeats make whole points of a series: all of them, except those of a workload that an
 * incomplete run (interrupted, or its runner killed) cut short before it measured as many
 * repeats as the run was configured for. A partial point would be judged as if it were a night's
 * whole evidence. Used by detection's reading of the history (store.runs.resultRows and
 * streamWorkloadNights) and by the pages.
 *
 * @module
 */

/** A SQL condition on `runs r` and `repeats p`: true when the repeat belongs to a workload an incomplete run cut short. */
export const cutShortCondition = `r.status = 'incomplete' AND (
  SELECT COUNT(*) FROM repeats q WHERE q.run_id = r.id AND q.workload = p.workload AND q.status IN ('ok', 'disturbed')
) < COALESCE(json_extract(r.config, '$.repeats'), 0)`;
