import { validate } from '../config/load.js';
import { detectionSchema, detectRegressions, latestNightlyNight, loadEpisodes } from '../detect/index.js';
import { resolveSeriesPolicy } from '../detect/index.js';
import type { HistoryStore } from '../history/store.js';
import { triageEvents } from '../history/triage-queries.js';
import { detectionQuality } from '../triage/quality.js';
import type { NightSummaryInput, SummaryChange, SummaryFailure, SummaryRun } from './night-summary.js';

export interface CollectOptions {
  /** Default: the latest nightly night in the history. */
  night?: string;
  /** The config's `detection` section; detection runs as a dry run, changing nothing. */
  detection?: unknown;
  /** Skip detection: a shard's own database has no baseline to judge against. */
  detect?: boolean;
  expectedShards?: number;
  reportUrl?: string;
}

/** Reads what the summary of a night shows from the history (read-only: detection is a dry run). */
export function collectNightSummary(store: HistoryStore, options: CollectOptions = {}): NightSummaryInput {
  const night = options.night ?? latestNightlyNight(store.db) ?? '(none)';
  const runs = (
    store.db
      .prepare(
        `SELECT r.id AS runId, r.suite, r.shard, r.status, r.cluster_shape AS clusterShape, r.started_at AS startedAt, r.finished_at AS finishedAt, r.cost_usd AS costUsd,
                sum(p.status = 'ok') AS ok, sum(p.status = 'failed') AS failed, sum(p.status = 'timeout') AS timeout, sum(p.status = 'disturbed') AS disturbed
         FROM runs r LEFT JOIN repeats p ON p.run_id = r.id
         WHERE r.kind = 'nightly' AND r.night = ? GROUP BY r.id ORDER BY r.suite, r.shard, r.started_at`,
      )
      .all(night) as (Omit<SummaryRun, 'repeats' | 'shard' | 'finishedAt' | 'costUsd'> & { shard: string | null; finishedAt: string | null; costUsd: number | null; ok: number | null; failed: number | null; timeout: number | null; disturbed: number | null })[]
  ).map(({ ok, failed, timeout, disturbed, shard, finishedAt, costUsd, ...run }) => ({
    ...run,
    shard: shard ?? undefined,
    finishedAt: finishedAt ?? undefined,
    costUsd: costUsd ?? undefined,
    repeats: { ok: ok ?? 0, failed: failed ?? 0, timeout: timeout ?? 0, disturbed: disturbed ?? 0 },
  }));
  const failures = (
    store.db
      .prepare(
        `SELECT r.suite, p.workload, p.repeat, p.status, p.error FROM repeats p JOIN runs r ON r.id = p.run_id
         WHERE r.kind = 'nightly' AND r.night = ? AND p.status IN ('failed', 'timeout') ORDER BY r.suite, p.workload, p.repeat`,
      )
      .all(night) as (Omit<SummaryFailure, 'error'> & { error: string | null })[]
  ).map(({ error, ...f }) => ({ ...f, error: error ?? undefined }));

  let changes: SummaryChange[] = [];
  let stable = 0;
  const policy = validate(detectionSchema, options.detection ?? {}, 'detection');
  // The time only sorts open issues by age, which the summary does not show.
  const quality = detectionQuality(loadEpisodes(store.db), triageEvents(store.db), {
    now: new Date(`${/^\d{4}-\d{2}-\d{2}$/.test(night) ? night : '1970-01-01'}T23:59:59Z`),
    threshold: (suite, workload, metric) => resolveSeriesPolicy(policy, { suite, workload, metric }).threshold,
  });
  if (options.detect !== false && runs.length > 0) {
    const report = detectRegressions(store, policy, { now: night, dryRun: true });
    stable = report.counts.stable;
    changes = report.verdicts.flatMap((v) =>
      v.kind === 'regression' || v.kind === 'improvement'
        ? [{ suite: v.identity.suite, workload: v.identity.workload, metric: v.identity.metric, kind: v.kind, change: v.change, newMedian: v.newMedian, baselineMedian: v.baselineMedian, unit: v.unit ?? undefined, reason: v.reason }]
        : [],
    );
  }
  return { night, runs, failures, changes, stable, expectedShards: options.expectedShards, reportUrl: options.reportUrl, quality };
}
