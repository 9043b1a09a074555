/**
 * The SQL of backfills and past versions (db/migrations/011-backfill.sql): which nights are already recorded,
 * the episodes found by judging them again (a backfill's or a replay's), workloads a version cannot run and metrics it cannot report.
 * RunStore and EpisodeStore expose these as methods.
 *
 * @module
 */
import type { Db } from './database.js';
import { guardSqlite as guard } from './database.js';

/** Run statuses of a night that ran to its end: a redo would only measure it again. */
const finishedStatuses = ['complete', 'partial', 'failed'] as const;

/**
 * Nights of `from`..`to` on which every one of `suites` has a nightly run that ran to its end.
 * An interrupted night (incomplete, or still running) is not among them, so it is recorded again.
 */
export function nightsRecorded(db: Db, suites: readonly string[], from: string, to: string): string[] {
  if (suites.length === 0) return [];
  return guard(db, () =>
    db
      .prepare(
        `SELECT night FROM runs
         WHERE kind = 'nightly' AND night BETWEEN ? AND ? AND status IN (${finishedStatuses.map(() => '?').join(',')})
           AND suite IN (${suites.map(() => '?').join(',')})
         GROUP BY night HAVING count(DISTINCT suite) = ? ORDER BY night`,
      )
      .pluck()
      .all(from, to, ...finishedStatuses, ...suites, suites.length) as string[],
  );
}

/** Who judged past nights again and found an episode nobody saw live (db/migrations/017-replay.sql adds `replay`). */
export type OfflineJudge = 'backfill' | 'replay';

const foundColumns: Record<OfflineJudge, string> = { backfill: 'found_in_backfill', replay: 'found_in_replay' };

export function markEpisodesFound(db: Db, episodeIds: readonly number[], by: OfflineJudge): number {
  if (episodeIds.length === 0) return 0;
  return guard(db, () => db.prepare(`UPDATE regressions SET ${foundColumns[by]} = 1 WHERE id IN (${episodeIds.map(() => '?').join(',')})`).run(...episodeIds).changes);
}

export interface UnsupportedWorkload {
  runId: string;
  workload: string;
  workloadVersion: string;
  reason: string;
}

export function insertUnsupportedWorkload(db: Db, record: UnsupportedWorkload): void {
  db.prepare('INSERT OR IGNORE INTO unsupported_workloads (run_id, workload, workload_version, reason) VALUES (?, ?, ?, ?)').run(record.runId, record.workload, record.workloadVersion, record.reason);
}

export interface AbsentMetric {
  runId: string;
  workload: string;
  metric: string;
  reason: string;
}

/** Kept once per run: every repeat reports the same absence, the first one's reason stays. */
export function insertAbsentMetrics(db: Db, absent: readonly AbsentMetric[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO absent_metrics (run_id, workload, metric, reason) VALUES (?, ?, ?, ?)');
  for (const a of absent) insert.run(a.runId, a.workload, a.metric, a.reason);
}

