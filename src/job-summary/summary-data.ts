import { formatVariant } from '../format/index.js';
import { validate } from '../validation.js';
import { detectionSchema, judgedNight, reachKnownNights, resolveSeriesPolicy, summarizeSensitivity, unjudgedCounts } from '../detect/index.js';
import type { MachineNight } from '../detect/machine-night.js';
import type { HistoryStore } from '../history/store.js';
import { detectionQuality } from '../detect/quality.js';
import type { NightSummaryInput, SummaryChange, SummarySensitivity } from './night-summary.js';

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

/** Reads what the summary of a night shows from the history (read-only: the verdicts detection stored, or a dry run). */
export function collectNightSummary(store: Pick<HistoryStore, 'runs' | 'episodes' | 'triage' | 'nights'>, options: CollectOptions = {}): NightSummaryInput {
  const night = options.night ?? store.runs.latestNightlyNight() ?? '(none)';
  const runs = store.nights.nightSummaryRuns(night);
  const failures = store.nights.nightSummaryFailures(night);

  let changes: SummaryChange[] = [];
  let stable = 0;
  let unjudged: NightSummaryInput['unjudged'];
  let sensitivityUnknown: NightSummaryInput['sensitivityUnknown'];
  let sensitivity: SummarySensitivity[] | undefined;
  let machine: MachineNight | undefined;
  const policy = validate(detectionSchema, options.detection ?? {}, 'detection');
  // The time only sorts open issues by age, which the summary does not show.
  const quality = detectionQuality(store.episodes.episodes(), store.triage.triageEvents(), {
    now: new Date(`${/^\d{4}-\d{2}-\d{2}$/.test(night) ? night : '1970-01-01'}T23:59:59Z`),
    threshold: (suite, workload, metric) => resolveSeriesPolicy(policy, { suite, workload, metric }).threshold,
  });
  if (options.detect !== false && runs.length > 0) {
    const report = judgedNight(store, policy, { now: night });
    stable = report.counts.stable;
    const { youngHistory, disturbed, notPositive } = unjudgedCounts(report);
    unjudged = { youngHistory, minBaselineNights: policy.minBaselineNights, disturbed, notPositive };
    sensitivityUnknown = { series: report.verdicts.filter((v) => v.reachKnownFrom !== undefined).length, reachNights: reachKnownNights(policy.persistNights) };
    changes = report.verdicts.flatMap((v) =>
      v.kind === 'regression' || v.kind === 'improvement'
        ? [{ suite: v.identity.suite, workload: v.identity.workload, metric: v.identity.metric, variant: formatVariant(v.identity), kind: v.kind, change: v.change, newMedian: v.newMedian, baselineMedian: v.baselineMedian, unit: v.unit ?? undefined, reason: v.reason }]
        : [],
    );
    machine = report.machine;
    sensitivity = report.verdicts.flatMap((v) => (v.detectable ? [{ suite: v.identity.suite, workload: v.identity.workload, metric: v.identity.metric, variant: formatVariant(v.identity), ...summarizeSensitivity(v.detectable) }] : []));
  }
  return { night, runs, failures, changes, stable, unjudged, sensitivityUnknown, expectedShards: options.expectedShards, reportUrl: options.reportUrl, quality, sensitivity, machine };
}
