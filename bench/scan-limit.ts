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
 * (clipping, the lag-1 correlation allowance, the rank test, tonight on the new side; detection's
 * size gate only when asked, `gate`): it is white noise's best, and the gap between it and
 * detection is what those guards cost on white noise.
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
  /** Splits measured clearly below the threshold do not count (in the values' units; the threshold is set without it). */
  gate?: SizeGate;
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

/** A split counts only when its size is not clearly below the threshold, as detection's episode gate asks. */
export interface SizeGate {
  /** The threshold in the values' units: ln 1.1 for 10% on log levels, ln 1.1 / s on levels in units of their noise s. */
  logThreshold: number;
  /** How many of the split's standard errors its size may fall short of the threshold. */
  standardErrors: number;
}

/**
 * The scan streamed over a series of log nightly levels (oldest first), as a nightly detector
 * would run it: each night its strongest split either way that `gate` lets through; at the
 * white-noise threshold the split's first night is a change, and later nights are set against
 * the level from there on only. On series that are not white noise (a drift, a bimodal benchmark,
 * REALISE's real ones) it shows what white noise's best detector, with detection's size gate,
 * opens without detection's guards.
 */
export function scanChanges(levels: readonly number[], options: Omit<ScanLimitOptions, 'noiseKnown' | 'nightsBefore' | 'within' | 'gate'>, gate: SizeGate): number[] {
  const scanOptions = { ...options, noiseKnown: false, nightsBefore: 0, within: [], gate };
  const threshold = scanThreshold(scanOptions, options.series ?? 40_000);
  const sums = prefixSums(Float64Array.from(levels));
  const changes: number[] = [];
  let origin = 0;
  for (let night = 0; night < levels.length; night++) {
    const split = strongestSplit(sums, night, scanOptions, origin);
    const start = split.highest >= -split.lowest ? (split.highest >= threshold ? split.highestStart : -1) : -split.lowest >= threshold ? split.lowestStart : -1;
    if (start >= 0) changes.push((origin = start));
  }
  return changes;
}

const thresholds = new Map<string, number>();

/** The budget's quantile of the scan's largest |statistic| over an unchanged series' nights. */
function scanThreshold(options: ScanLimitOptions, series: number): number {
  const key = JSON.stringify([options.budgetNights, options.budget, options.noiseKnown, options.baselineNights, options.minBaseline, options.minNights, series, options.seed]);
  const known = thresholds.get(key);
  if (known !== undefined) return known;
  // The gate only takes alarms away: the threshold is the plain scan's.
  const ungated = { ...options, gate: undefined };
  const random = createRandom(options.seed ?? 1);
  const values = new Float64Array(options.budgetNights);
  const maxima: number[] = [];
  for (let i = 0; i < series; i++) {
    for (let night = 0; night < values.length; night++) values[night] = standardNormal(random);
    const sums = prefixSums(values);
    let highest = 0;
    for (let night = 0; night < values.length; night++) {
      const split = strongestSplit(sums, night, ungated);
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

/**
 * The largest and smallest statistic (z, or t read as z) over the splits whose later side ends on
 * `night` (and that `options.gate` lets through), with the first night of each one's later side;
 * no baseline reaches before `origin` (the level a streamed scan judged last).
 */
function strongestSplit({ sum, squares }: PrefixSums, night: number, options: ScanLimitOptions, origin = 0): { highest: number; highestStart: number; lowest: number; lowestStart: number } {
  const gate = options.gate;
  let highest = Number.NEGATIVE_INFINITY;
  let lowest = Number.POSITIVE_INFINITY;
  let highestStart = -1;
  let lowestStart = -1;
  const end = night + 1;
  for (let start = end - options.minNights; start >= origin + options.minBaseline; start--) {
    const later = end - start;
    const before = Math.min(options.baselineNights, start - origin);
    const laterSum = sum[end]! - sum[start]!;
    const beforeSum = sum[start]! - sum[start - before]!;
    const difference = laterSum / later - beforeSum / before;
    const scale = Math.sqrt(1 / later + 1 / before);
    let statistic: number;
    let standardError = scale;
    if (options.noiseKnown) statistic = difference / scale;
    else {
      const within = squares[end]! - squares[start]! - (laterSum * laterSum) / later + (squares[start]! - squares[start - before]! - (beforeSum * beforeSum) / before);
      const degrees = later + before - 2;
      standardError = Math.sqrt(Math.max(within, 1e-300) / degrees) * scale;
      statistic = tAsZ(difference / standardError, degrees);
    }
    if (gate && Math.abs(difference) < gate.logThreshold - gate.standardErrors * standardError) continue;
    if (statistic > highest) (highest = statistic), (highestStart = start);
    if (statistic < lowest) (lowest = statistic), (lowestStart = start);
  }
  return { highest, highestStart, lowest, lowestStart };
}
