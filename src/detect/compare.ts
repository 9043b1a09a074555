/**
 * Stage 2 of detection: one night of a series against the trailing window of nights before it.
 * Pure: no I/O, no clock (the night is a parameter), no randomness.
 *
 * @module
 */
import { median } from 'simple-statistics';
import { mannWhitneyU, pooledWithinSpread } from '../stats/index.js';
import { differenceNoise } from '../stats/segmentation.js';
import { logMedianOf, nightMedian, type NightPoint, type Series } from './series.js';

export interface CompareOptions {
  /** The judged night, YYYY-MM-DD. */
  night: string;
  /** Results (ok points of the series) before `night` that form the fast path's baseline. */
  windowResults: number;
  /** Results before `night` whose medians give the series' noise and the persistence path's baseline (at least `windowResults`). */
  lookbackResults: number;
  /** Ok results before the lookback that the persistence path may read as baseline only (`Comparison.earlier`); default 0. */
  earlierResults?: number;
  /**
   * No baseline night before this one (YYYY-MM-DD): set to the first bad night of an accepted
   * episode, so that the level a maintainer accepted is what later nights are compared with.
   */
  baselineStart?: string;
  /**
   * The first night of the series' current level (YYYY-MM-DD): its latest episode's first bad
   * night, recovered or not, so a regression that came and went is part of it.
   */
  levelStart?: string;
  /** Nights the machine, not the code, moved (`machine-night.ts`): no part of what the series showed. */
  machineNights?: ReadonlySet<string>;
}

/** The numbers of a comparison; present only when both sides have values and they are positive. */
export interface ComparisonStats {
  /** Median of every baseline value (all repeats of all baseline nights pooled). */
  baselineMedian: number;
  newMedian: number;
  /** `newMedian / baselineMedian`. */
  ratio: number;
  /**
   * One-sided Mann-Whitney U p-value of tonight's repeats against the pooled baseline repeats,
   * in the direction of the observed change of medians.
   */
  pValue: number;
  /** Relative noise of one nightly median: the larger of {@link nightSpread} and what {@link repeatSpread} implies. */
  noise: number;
  /**
   * Night-to-night noise of the lookback's log nightly medians, from the MAD of successive
   * differences: a level shift or an outlier night inside the lookback barely moves it.
   */
  nightSpread: number;
  /** Pooled within-night standard deviation of the lookback's log values (about the repeats' CV). */
  repeatSpread: number;
  /** What `repeatSpread` implies for the noise of tonight's median: the least its night-to-night noise can be. */
  repeatNoise: number;
  /** Degrees of freedom of `repeatSpread`: the lookback's repeats less one per night. */
  repeatDegrees: number;
  /**
   * Standard deviation of `ln(ratio)` under no change: `noise * sqrt(1 + 1/baselineNights)`,
   * tonight's median counting once and the baseline's as the average of its nights.
   */
  changeNoise: number;
}

export interface Comparison {
  night: string;
  /** The series' point of the judged night, if the workload ran that night. */
  latest?: NightPoint;
  /** Ok nights of the window, oldest first. */
  baseline: NightPoint[];
  /** Ok nights of the lookback before tonight, oldest first (the window's among them, and older ones). */
  lookback: NightPoint[];
  /**
   * Ok nights just before the lookback, at or after `baselineStart`, oldest first (at most
   * `earlierResults`): baseline of the persistence path only, never split at, never the noise.
   */
  earlier: NightPoint[];
  /** Nights among the window's that are not ok (failed, disturbed, missing): left out, never judged. */
  skipped: NightPoint[];
  /** The first night after the last level shift (an episode's first bad night), if inside the lookback. */
  baselineStart?: string;
  /**
   * Ok nights of the lookback since the series' current level began (`levelStart`), machine
   * nights left out: the levels it showed on its own, which one night reaching again proves nothing.
   */
  levelNights: NightPoint[];
  /** The latest ok night before the judged one, however old: the good end of a suspect range. */
  lastGood?: NightPoint;
  /** Median of tonight's values, when tonight is ok. */
  newMedian?: number;
  stats?: ComparisonStats;
}

/**
 * Compares the series' point of `options.night` with its last `windowResults` ok points before
 * it. The windows count results, not calendar days (issue 30): an imported history has one value
 * per commit on irregular dates, and a nightly skips or fails nights, so a week of days may hold
 * one result or none, while what the statistics need is a number of results.
 * Why these statistics, decided once for every series (the detector runs over
 * thousands of series each night, so each must cost microseconds):
 * - the rank test (Mann-Whitney U, exact for small samples) is the significance test: it needs
 *   no normality, shrugs off one outlying repeat, and is cheap. A bootstrap interval of the
 *   ratio would cost thousands of resamples per series and says no more at 3-5 repeats.
 * - the rank test treats repeats of one night as independent, but repeats share a night's
 *   machine state, so the change must also exceed the noise of a nightly median: the baseline's
 *   night-to-night spread, floored by what the pooled repeat spread implies for a median
 *   (7 nightly medians alone give a noisy spread, sometimes far too small).
 */
export function compareNight(series: Series, options: CompareOptions): Comparison {
  const points = series.points;
  const index = lastIndexAtOrBefore(points, options.night);
  const latest = index >= 0 && points[index]!.night === options.night ? points[index] : undefined;
  const end = latest ? index - 1 : index;
  const lookbackResults = Math.max(options.windowResults, options.lookbackResults);
  const baseline: NightPoint[] = [];
  const lookback: NightPoint[] = [];
  const skipped: NightPoint[] = [];
  for (let i = end; i >= 0 && lookback.length < lookbackResults; i--) {
    const point = points[i]!;
    if (point.status === 'ok') lookback.push(point);
    // The window: its results since the level changed; the failed nights among them are skipped.
    const inWindow = baseline.length < options.windowResults && (options.baselineStart === undefined || point.night >= options.baselineStart);
    if (inWindow) (point.status === 'ok' ? baseline : skipped).push(point);
  }
  // The loop reads back until the lookback is full or the points end: its newest night is the latest ok one.
  const lastGood = lookback[0];
  const earlier: NightPoint[] = [];
  for (let i = end - lookbackIndexSpan(points, end, lookback.length); i >= 0 && earlier.length < (options.earlierResults ?? 0); i--) {
    const point = points[i]!;
    if (options.baselineStart !== undefined && point.night < options.baselineStart) break;
    if (point.status === 'ok') earlier.push(point);
  }
  earlier.reverse();
  baseline.reverse();
  lookback.reverse();
  skipped.reverse();
  const levelNights = lookback.filter((point) => (options.levelStart === undefined || point.night >= options.levelStart) && !options.machineNights?.has(point.night));
  const comparison: Comparison = { night: options.night, latest, baseline, lookback, earlier, levelNights, skipped, lastGood, baselineStart: options.baselineStart };
  if (latest?.status !== 'ok') return comparison;
  comparison.newMedian = nightMedian(latest.values);
  comparison.stats = statistics(latest.values, comparison.newMedian, baseline, lookback);
  return comparison;
}

function statistics(values: number[], newMedian: number, baseline: NightPoint[], lookback: NightPoint[]): ComparisonStats | undefined {
  if (baseline.length === 0) return undefined;
  // Relative statistics (ratios, logs, spreads) need positive values on both sides.
  if (!values.every((value) => value > 0) || !lookback.every((point) => point.values.every((value) => value > 0))) return undefined;
  const pooled = baseline.flatMap((point) => point.values);
  const { spread: repeatSpread, degrees: degreesOfFreedom } = pooledWithinSpread(lookback.map((point) => point.values.map(Math.log)));
  const baselineMedian = median(pooled);
  const nightSpread = differenceNoise(lookback.map(logMedianOf));
  const repeatNoise = repeatSpread * medianNoiseFactor(values.length);
  const noise = Math.max(nightSpread, repeatNoise);
  const ratio = newMedian / baselineMedian;
  const { p } = mannWhitneyU(values, pooled, { alternative: newMedian >= baselineMedian ? 'greater' : 'less' });
  return { baselineMedian, newMedian, ratio, pValue: p, noise, nightSpread, repeatSpread, repeatNoise, repeatDegrees: degreesOfFreedom, changeNoise: changeNoiseOf(noise, baseline.length) };
}

/** Standard deviation of `ln(ratio)` under no change, for a nightly median's relative `noise` against a baseline of `baselineNights`. */
export function changeNoiseOf(noise: number, baselineNights: number): number {
  return noise * Math.sqrt(1 + 1 / baselineNights);
}

/**
 * Exact standard deviation of the median of 3, 4 and 5 normal values relative to one value's
 * (from the order statistics' densities; 4: the mean of the middle two). The large-sample
 * sqrt(pi / 2n) overstates it there (0.72 against 0.67 at 3, 0.63 against 0.55 at 4), which made
 * the noise floor of the usual 3 repeats 8% too high and cost the persistence path its power.
 */
const smallMedianNoise: Record<number, number> = { 3: 0.6698, 4: 0.5458, 5: 0.5356 };

/**
 * Standard deviation of the median of `n` values relative to one value's: the mean's 1/sqrt(n)
 * for one or two values (their median is their mean), exact for 3-5, else the large-sample sqrt(pi / 2n).
 */
export function medianNoiseFactor(n: number): number {
  return n <= 2 ? 1 / Math.sqrt(n) : (smallMedianNoise[n] ?? Math.sqrt(Math.PI / (2 * n)));
}

/** How many points back from `end` (inclusive) the lookback's `okCount` ok points reach. */
function lookbackIndexSpan(points: readonly NightPoint[], end: number, okCount: number): number {
  let seen = 0;
  let i = end;
  for (; i >= 0 && seen < okCount; i--) if (points[i]!.status === 'ok') seen++;
  return end - i;
}

/** Index of the last point whose night is at or before `night`, or -1 (points sorted by night). */
function lastIndexAtOrBefore(points: readonly NightPoint[], night: string): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (points[mid]!.night <= night) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}
