/**
 * Stage 3 of detection: a comparison judged against the policy. Pure: no I/O.
 *
 * @module
 */
import type { Comparison } from './compare.js';
import { resolveSeriesPolicy, type DetectionPolicy, type Direction } from './policy.js';
import type { NightPoint, Series, SeriesIdentity } from './series.js';

/**
 * - `regression` / `improvement`: a change of at least the threshold, significant by the rank
 *   test and beyond the series' nightly noise. Improvements are reported, never made issues.
 * - `stable`: judged, and no change that passes all three tests.
 * - `failed`, `disturbed`, `missing`: tonight's point is not ok (see `PointStatus`); not judged.
 * - `too-few-repeats`: fewer ok repeats tonight than `minRepeats`; not judged.
 * - `insufficient-baseline`: fewer good nights in the window than `minBaselineNights` (or values
 *   that are not positive, which have no relative change); not judged.
 */
export type VerdictKind = 'regression' | 'improvement' | 'stable' | 'failed' | 'disturbed' | 'missing' | 'too-few-repeats' | 'insufficient-baseline';

/** A night of a series, as an episode or an issue points at it. */
export interface NightRef {
  night: string;
  runId: string;
  /** repo -> sha */
  commits: Record<string, string>;
}

/** The verdict of one series on one night, with the figures that led to it. */
export interface SeriesVerdict {
  seriesKey: string;
  identity: SeriesIdentity;
  unit: string | null;
  night: string;
  kind: VerdictKind;
  /** Why, in words, e.g. "+14.8% (threshold 10%), p = 0.0005, 6.1x noise". */
  reason: string;
  direction: Direction;
  threshold: number;
  /** Tonight's run and commits. */
  latest?: NightRef;
  /** The latest ok night before tonight. */
  lastGood?: NightRef;
  baselineNights: number;
  /** The oldest baseline night, when there is a baseline. */
  baselineFrom?: string;
  skippedNights: number;
  /** Median of tonight's ok values (present whenever tonight is ok). */
  newMedian?: number;
  baselineMedian?: number;
  /** `newMedian / baselineMedian - 1`; positive is larger, whichever way is better. */
  change?: number;
  pValue?: number;
  /** Relative noise of one nightly median in the baseline. */
  noise?: number;
  /** `|ln ratio|` in units of the comparison's noise. */
  noiseMultiple?: number;
}

/** Judges the comparison of `series` for its night under `policy`. */
export function judge(series: Series, comparison: Comparison, policy: DetectionPolicy): SeriesVerdict {
  const { threshold, direction } = resolveSeriesPolicy(policy, series.identity);
  const latest = comparison.latest;
  const base: SeriesVerdict = {
    seriesKey: series.key,
    identity: series.identity,
    unit: series.unit,
    night: comparison.night,
    kind: 'missing',
    reason: 'the workload did not run this night',
    direction,
    threshold,
    latest: latest && nightRef(latest),
    lastGood: comparison.lastGood && nightRef(comparison.lastGood),
    baselineNights: comparison.baseline.length,
    baselineFrom: comparison.baseline[0]?.night,
    skippedNights: comparison.skipped.length,
    newMedian: comparison.newMedian,
  };
  const verdict = (kind: VerdictKind, reason: string): SeriesVerdict => ({ ...base, kind, reason });
  if (latest === undefined) return base;
  if (latest.status === 'failed') return verdict('failed', `${latest.failedRepeats} of ${latest.failedRepeats + latest.okRepeats + latest.disturbedRepeats} repeats failed`);
  if (latest.status === 'disturbed') return verdict('disturbed', `all ${latest.disturbedRepeats} repeats were disturbed`);
  if (latest.status === 'missing') return verdict('missing', 'the workload ran but did not report this metric');
  if (latest.values.length < policy.minRepeats) {
    const why = `${latest.values.length} ok repeat${latest.values.length === 1 ? '' : 's'}, fewer than the ${policy.minRepeats} needed`;
    return latest.disturbedRepeats > 0 ? verdict('disturbed', `${why} (${latest.disturbedRepeats} disturbed)`) : verdict('too-few-repeats', why);
  }
  if (comparison.baseline.length < policy.minBaselineNights) {
    return verdict('insufficient-baseline', `${comparison.baseline.length} good night${comparison.baseline.length === 1 ? '' : 's'} in the last ${policy.windowDays} days, fewer than the ${policy.minBaselineNights} needed`);
  }
  const stats = comparison.stats;
  if (stats === undefined) return verdict('insufficient-baseline', 'values that are not positive have no relative change');

  const change = stats.ratio - 1;
  const multiple = stats.changeNoise > 0 ? Math.abs(Math.log(stats.ratio)) / stats.changeNoise : Number.POSITIVE_INFINITY;
  const judged = { ...base, baselineMedian: stats.baselineMedian, change, pValue: stats.pValue, noise: stats.noise, noiseMultiple: multiple };
  const large = Math.abs(change) >= threshold;
  const significant = stats.pValue <= policy.alpha;
  const beyondNoise = multiple >= policy.noiseMultiple;
  const figures = `${formatChange(change)} (threshold ${formatPercent(threshold)}), p = ${formatP(stats.pValue)}, ${multiple.toFixed(1)}x noise`;
  if (large && significant && beyondNoise) {
    const worse = direction === 'lower-is-better' ? change > 0 : change < 0;
    return { ...judged, kind: worse ? 'regression' : 'improvement', reason: figures };
  }
  const missed = [
    large ? undefined : 'below threshold',
    significant ? undefined : `not significant at alpha ${policy.alpha}`,
    beyondNoise ? undefined : `within ${policy.noiseMultiple}x noise`,
  ].filter((why) => why !== undefined);
  return { ...judged, kind: 'stable', reason: `${figures}: ${missed.join(', ')}` };
}

/** The night, run and commits of a point, without its values. */
export function nightRef(point: NightPoint): NightRef {
  return { night: point.night, runId: point.runId, commits: point.commits };
}

/** A signed percentage with one decimal, e.g. "+14.8%". */
export function formatChange(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`;
}

function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** A p-value in at most four significant digits. */
export function formatP(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : Number(p.toPrecision(2)).toString();
}
