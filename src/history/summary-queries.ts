/**
 * The job summary's reads of one night: its nightly runs with repeat counts, and its failed repeats.
 *
 * @module
 */
import type { SummaryFailure, SummaryRun } from './night-rows.js';
import type { Db } from './database.js';
import type { FailureClass } from './types.js';

export function nightSummaryRuns(db: Db, night: string): SummaryRun[] {
  const rows = db
    .prepare(
      `SELECT r.id AS runId, r.suite, r.shard, r.status, r.cluster_shape AS clusterShape, r.environment_name AS environmentName, r.started_at AS startedAt, r.finished_at AS finishedAt, r.cost_usd AS costUsd,
              sum(p.status = 'ok') AS ok, sum(p.status = 'failed') AS failed, sum(p.status = 'timeout') AS timeout, sum(p.status = 'disturbed') AS disturbed
       FROM runs r LEFT JOIN repeats p ON p.run_id = r.id
       WHERE r.kind = 'nightly' AND r.night = ? GROUP BY r.id ORDER BY r.suite, r.shard, r.started_at`,
    )
    .all(night) as (Omit<SummaryRun, 'repeats' | 'shard' | 'finishedAt' | 'costUsd'> & { shard: string | null; finishedAt: string | null; costUsd: number | null; ok: number | null; failed: number | null; timeout: number | null; disturbed: number | null })[];
  return rows.map(({ ok, failed, timeout, disturbed, shard, finishedAt, costUsd, ...run }) => ({
    ...run,
    shard: shard ?? undefined,
    finishedAt: finishedAt ?? undefined,
    costUsd: costUsd ?? undefined,
    repeats: { ok: ok ?? 0, failed: failed ?? 0, timeout: timeout ?? 0, disturbed: disturbed ?? 0 },
  }));
}

export function nightSummaryFailures(db: Db, night: string): SummaryFailure[] {
  const rows = db
    .prepare(
      `SELECT r.suite, p.workload, p.repeat, p.status, p.error, p.failure_class AS class, p.failure_cause AS cause FROM repeats p JOIN runs r ON r.id = p.run_id
       WHERE r.kind = 'nightly' AND r.night = ? AND p.status IN ('failed', 'timeout') ORDER BY r.suite, p.workload, p.repeat`,
    )
    .all(night) as (Omit<SummaryFailure, 'error' | 'failure'> & { error: string | null; class: FailureClass | null; cause: string | null })[];
  return rows.map(({ error, class: failureClass, cause, ...f }) => ({ ...f, error: error ?? undefined, ...(failureClass ? { failure: { class: failureClass, cause: cause ?? '' } } : {}) }));
}
