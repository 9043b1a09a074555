/**
 * The scan limit of bench/detect-power.ts's grid: how soon a detector that knows only the nights
 * finds a step, at the same false-alarm budget as detection (0.5 per 100 series x 60 nights,
 * either way). Each night it takes every split whose later side ends tonight and holds at least
 * `minNights` nights, sets those nights against up to `baselineNights` before them (at least
 * `minBaseline`), and opens when the best split's two-sample statistic passes a threshold; the
 * threshold is the budget's quantile of that scan's maximum over unchanged series. This is the
 * generalised likelihood ratio scan for a step of unknown night and size (Lorden): the columns
 * beside it know the step's night (two-sample) or its night, size and the old level (sequential).
 *
 * With `noiseKnown` false the noise is estimated as a detector must at one repeat a night (the
 * spread within the split's two sides, its t read on the normal scale); with it true the noise is
 * known exactly, the best repeats can tell. The scan has none of the guards real series need
 * (clipping, the lag-1 correlation allowance, the gates of src/detect/): it is white noise's best,
 * and the gap between it and detection is what those guards cost on white noise.
 *
 * Monte Carlo, seeded; the threshold is computed once per setting and kept.
 */
import { tAsZ } from '../src/stats/student-t.js';
import { createRandom, standardNormal } from '../src/stats/random.js';

export interface ScanLimitOptions {
  /** Nights of an unchanged series over which the budget is spent (60). */
  budgetNights: number;
  /** Share of unchanged series allowed one false alarm either way over `budgetNights` (0.005). */
  budget: number;
  /** Unchanged nights before the step. */
  nightsBefore: number;
  /** The found-within columns, in nights from the step's first night (1 = on it). */
  within: readonly number[];
  noiseKnown: boolean;
  /** The longest baseline a split is set against (detection's `persistBaselineNights`, 30). */
  baselineNights: number;
  /** The shortest baseline (the persistence path's, 7) and the fewest nights on the later side (`persistNights`, 3). */
  minBaseline: number;
  minNights: number;
  /** Simulated unchanged series for the threshold; a tenth as many stepped ones per case. */
  series?: number;
  seed?: number;
}

/** Share of steps of `delta` (in units of one night's noise) the scan finds within each of `options.within` nights. */
export function scanLimit(delta: number, options: ScanLimitOptions): number[] {
  const series = options.series ?? 40_000;
  const threshold = scanThreshold(options, series);
  const random = createRandom((options.seed ?? 1) + 1);
  const longest = Math.max(...options.within);
  const values = new Float64Array(options.nightsBefore + longest);
  const delays: number[] = [];
  for (let i = 0; i < series / 10; i++) {
    for (let night = 0; night < values.length; night++) values[night] = standardNormal(random) + (night >= options.nightsBefore ? delta : 0);
    const sums = prefixSums(values);
    let delay = Number.POSITIVE_INFINITY;
    // An alarm before the step is a miss, as a false alarm would be.
    for (let night = 0; night < values.length && delay === Number.POSITIVE_INFINITY; night++) {
      if (strongestSplit(sums, night, options).highest < threshold) continue;
      delay = night < options.nightsBefore ? -1 : night - options.nightsBefore + 1;
    }
    delays.push(delay);
  }
  return options.within.map((nights) => delays.filter((delay) => delay >= 1 && delay <= nights).length / delays.length);
}

const thresholds = new Map<string, number>();

/** The budget's quantile of the scan's largest |statistic| over an unchanged series' nights. */
function scanThreshold(options: ScanLimitOptions, series: number): number {
  const key = JSON.stringify([options.budgetNights, options.budget, options.noiseKnown, options.baselineNights, options.minBaseline, options.minNights, series, options.seed]);
  const known = thresholds.get(key);
  if (known !== undefined) return known;
  const random = createRandom(options.seed ?? 1);
  const values = new Float64Array(options.budgetNights);
  const maxima: number[] = [];
  for (let i = 0; i < series; i++) {
    for (let night = 0; night < values.length; night++) values[night] = standardNormal(random);
    const sums = prefixSums(values);
    let highest = 0;
    for (let night = 0; night < values.length; night++) {
      const split = strongestSplit(sums, night, options);
      highest = Math.max(highest, split.highest, -split.lowest);
    }
    maxima.push(highest);
  }
  maxima.sort((a, b) => a - b);
  const threshold = maxima[Math.min(series - 1, Math.floor(series * (1 - options.budget)))]!;
  thresholds.set(key, threshold);
  return threshold;
}

interface PrefixSums {
  sum: Float64Array;
  squares: Float64Array;
}

function prefixSums(values: Float64Array): PrefixSums {
  const sum = new Float64Array(values.length + 1);
  const squares = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) {
    sum[i + 1] = sum[i]! + values[i]!;
    squares[i + 1] = squares[i]! + values[i]! * values[i]!;
  }
  return { sum, squares };
}

/** The largest and smallest statistic (z, or t read as z) over the splits whose later side ends on `night`. */
function strongestSplit({ sum, squares }: PrefixSums, night: number, options: ScanLimitOptions): { highest: number; lowest: number } {
  let highest = Number.NEGATIVE_INFINITY;
  let lowest = Number.POSITIVE_INFINITY;
  const end = night + 1;
  for (let start = end - options.minNights; start >= options.minBaseline; start--) {
    const later = end - start;
    const before = Math.min(options.baselineNights, start);
    const laterSum = sum[end]! - sum[start]!;
    const beforeSum = sum[start]! - sum[start - before]!;
    const difference = laterSum / later - beforeSum / before;
    const scale = Math.sqrt(1 / later + 1 / before);
    let statistic: number;
    if (options.noiseKnown) statistic = difference / scale;
    else {
      const within = squares[end]! - squares[start]! - (laterSum * laterSum) / later + (squares[start]! - squares[start - before]! - (beforeSum * beforeSum) / before);
      const degrees = later + before - 2;
      statistic = tAsZ(difference / (Math.sqrt(Math.max(within, 1e-300) / degrees) * scale), degrees);
    }
    if (statistic > highest) highest = statistic;
    if (statistic < lowest) lowest = statistic;
  }
  return { highest, lowest };
}
