/**
 * The runs' workload nights (workload-nights.ts) read through `run_points` (migration 023): one
 * row per run instead of one per value. A run without its row is folded from its result rows and
 * its row written in the same write transaction, so that no repeat another writer adds meanwhile
 * can be missing from it (the triggers drop the row on any later change). A read-only history,
 * or one another writer holds, is folded and not kept: the row is an optimisation, never a
 * reason for a read to fail or wait.
 *
 * @module
 */
import { isBusy } from './busy-retry.js';
import { isReadonly, type Db } from './database.js';
import { preparedOnce } from './prepared.js';
import { cutShortCondition } from './whole-points-queries.js';
import { iterateResultRows, selectRuns, type ResultFilter } from './run-queries.js';
import { decodeRunPoints, encodeRunPoints, workloadNightsOfRows, type RunFacts, type WorkloadNight } from './workload-nights.js';

/** Which runs' workload nights to read: {@link ResultFilter} without the per-value filters. */
export type WorkloadNightFilter = Omit<ResultFilter, 'workload' | 'metric'>;

/**
 * Each matching run's points in their stored form (`encodeRunPoints`), oldest night first (the
 * order of `iterateResultRows`), with whether the run is incomplete: for a reader that walks them
 * its own way (`visitRunPoints`).
 */
export function* iterateRunPoints(db: Db, filter: WorkloadNightFilter = {}): Generator<{ run: RunFacts; incomplete: boolean; stored: Uint8Array }> {
  const storedPoints = preparedOnce(db, 'SELECT points FROM run_points WHERE run_id = ?').pluck();
  // Once another writer was found holding the history, the other runs are folded without waiting for it again.
  let keep = !db.readonly;
  for (const { run, incomplete } of selectRuns(db, filter)) {
    let stored = storedPoints.get(run.runId) as Buffer | undefined;
    if (stored === undefined) ({ stored, kept: keep } = foldRun(db, run, keep));
    yield { run, incomplete, stored };
  }
}

/**
 * The workload nights of the matching runs, a run at a time, oldest night first (the order of
 * `iterateResultRows`). `wholePointsOnly` leaves out the workloads an incomplete run cut short
 * (whole-points-queries.ts: the rule the row reads apply, asked of incomplete runs only).
 */
export function* iterateWorkloadNights(db: Db, filter: WorkloadNightFilter = {}): Generator<WorkloadNight> {
  const cutShortWorkloads = preparedOnce(db, `SELECT DISTINCT p.workload FROM runs r JOIN repeats p ON p.run_id = r.id WHERE r.id = ? AND ${cutShortCondition}`).pluck();
  for (const { run, incomplete, stored } of iterateRunPoints(db, filter)) {
    const cutShort = new Set(filter.wholePointsOnly && incomplete ? (cutShortWorkloads.all(run.runId) as string[]) : []);
    for (const night of decodeRunPoints(run, stored)) if (!cutShort.has(night.workload)) yield night;
  }
}

/** The run's points folded from its result rows, in their stored form; kept when `keep` and no other writer holds the history. */
function foldRun(db: Db, run: RunFacts, keep: boolean): { stored: Buffer; kept: boolean } {
  const fold = () => encodeRunPoints(workloadNightsOfRows(iterateResultRows(db, { runIds: [run.runId] })));
  if (!keep) return { stored: fold(), kept: false };
  try {
    const stored = db
      .transaction(() => {
        const folded = fold();
        preparedOnce(db, 'INSERT OR REPLACE INTO run_points (run_id, points) VALUES (?, ?)').run(run.runId, folded);
        return folded;
      })
      .immediate();
    return { stored, kept: true };
  } catch (error) {
    // A file this user may not write opens read-write all the same (SQLite falls back to reading
    // it), so `db.readonly` does not tell: the refused write says so, and the run is read unkept.
    if (!isBusy(error) && !isReadonly(error)) throw error;
    return { stored: fold(), kept: false };
  }
}
