/**
 * The compare page's table: per workload x metric, a base set of repeats against a new one. The
 * same module runs in the build's tests and, bundled, in the browser, so the page and the tests
 * compute the same numbers. Reuses the A/B analysis' statistics: bootstrap interval of the ratio
 * of medians, Mann-Whitney p adjusted (Benjamini-Hochberg) over the table, and the A/B verdict
 * against a noise band. Pure; the bootstrap's randomness is seeded.
 *
 * @module
 */
import type { MetricDirection } from '../../direction.js';
import { abDirection, judge, type NoiseBand } from '../../ab/verdict.js';
import { shortHash } from '../paths.js';
import { benjaminiHochberg, bootstrapRatioOfMedians, createRandom, mannWhitneyUSorted, smallestTwoSidedP, type RatioInterval } from '../../stats/index.js';
import { bufferFor, sortInto } from '../../stats/sort-into.js';

/**
 * What a row says: a significant change beyond the noise (by the metric's direction), one inside
 * it, none, or that its sets are too small for the rank test to tell (two nights of 3 repeats:
 * at best p = 0.1, so "no change" would be said of a doubling).
 */
export type CompareStatus = 'regression' | 'improvement' | 'changed' | 'within noise' | 'no change' | 'too few values' | 'missing';

export const compareStatuses: readonly CompareStatus[] = ['regression', 'improvement', 'changed', 'within noise', 'no change', 'too few values', 'missing'];

/** One workload x metric with both sets' raw values. */
export interface CompareInput {
  key: string;
  base: readonly number[];
  new: readonly number[];
  direction: MetricDirection;
  /** The ratios noise alone gives: the A/A band of an A/B test, or the series' nightly noise. */
  band?: NoiseBand;
  /** The interval an A/B report computed for this test (at the page's 95%): shown as it is, so the two pages agree. */
  interval?: RatioInterval;
}

export interface CompareRow {
  key: string;
  status: CompareStatus;
  /** Why the status, in a few words. */
  reason: string;
  baseMedian?: number;
  newMedian?: number;
  /** new / base - 1. */
  change?: number;
  /** median(new) / median(base): what the status judges (its interval is `ratioInterval`, computed for the rows shown). */
  ratio?: number;
  p?: number;
  /** Adjusted over the rows that have a p-value. */
  pAdjusted?: number;
  /** P(new > base) - P(new < base), in [-1, 1]: how often one set's repeats beat the other's. */
  cliffsDelta?: number;
}

export interface CompareOptions {
  /** False discovery rate over the table; default 0.05. */
  fdr?: number;
}

/**
 * The band of a series judged by nightly noise: its night-to-night relative spread taken twice
 * each way, in log space (a 0.9 one way is a 1.11 the other), so a shift of two noise units
 * still reads "within noise".
 */
export function nightlyNoiseBand(noise: number): NoiseBand {
  const half = Math.log1p(2 * noise);
  return { low: Math.exp(-half), high: Math.exp(half) };
}

/** Every row of the table; rows keep the input's order. */
export function compareTable(inputs: readonly CompareInput[], options: CompareOptions): CompareRow[] {
  const fdr = options.fdr ?? 0.05;
  const rows = inputs.map(compareRow);
  // A row whose sets cannot reach the level whatever they hold is told so, and left out of the
  // adjustment (as Tarone's method does): counted in, it would only cost the other rows power.
  const untestable = (input: CompareInput) => smallestTwoSidedP(input.new.length, input.base.length) > fdr;
  const tested = rows.filter((row, i) => row.p !== undefined && !untestable(inputs[i]!));
  const { adjusted } = benjaminiHochberg(tested.map((row) => row.p!), fdr);
  tested.forEach((row, i) => (row.pAdjusted = adjusted[i]));
  return rows.map((row, i) => {
    if (row.p === undefined) return row;
    const input = inputs[i]!;
    if (untestable(input)) {
      const best = smallestTwoSidedP(input.new.length, input.base.length);
      return { ...row, status: 'too few values', reason: `${input.base.length} against ${input.new.length} values: the rank test cannot reach p ≤ ${fdr} (at best ${best.toPrecision(2)}); compare more nights` };
    }
    return { ...row, ...status(row, input, fdr) };
  });
}

/**
 * The bootstrap 95% interval of a row's ratio of medians, seeded by the seed and the row's key:
 * the same row gets the same interval whichever rows are drawn with it (the page computes
 * intervals only for the rows it shows; the status does not need them). An A/B report's own is
 * taken as it is. Undefined without a ratio.
 */
export function ratioInterval(input: CompareInput, seed: number, resamples = 1000): RatioInterval | undefined {
  if (input.interval) return input.interval;
  if (input.base.length === 0 || input.new.length === 0 || !input.base.every((v) => v > 0)) return undefined;
  return bootstrapRatioOfMedians(input.base, input.new, { random: createRandom((seed ^ Number.parseInt(shortHash(input.key), 16)) >>> 0), resamples });
}

function compareRow(input: CompareInput): CompareRow {
  if (input.base.length === 0 || input.new.length === 0) {
    return { key: input.key, status: 'missing', reason: input.base.length === 0 ? 'no value in the base set' : 'no value in the new set' };
  }
  // Each side sorted once, for its median and the rank test, in a buffer kept between rows: the
  // page judges 20,000 rows on every change of selection, and a new array per side and row cost
  // it more in allocation and collection than the tests themselves.
  const base = sortedInto(input.base, 0);
  const fresh = sortedInto(input.new, 1);
  const baseMedian = sortedMedian(base);
  const newMedian = sortedMedian(fresh);
  const { u, p } = mannWhitneyUSorted(fresh, base);
  const row: CompareRow = {
    key: input.key, status: 'no change', reason: '', baseMedian, newMedian, p,
    cliffsDelta: (2 * u) / (fresh.length * base.length) - 1,
  };
  if (baseMedian > 0 && base[0]! > 0) {
    row.ratio = newMedian / baseMedian;
    row.change = row.ratio - 1;
  }
  return row;
}

/** The buffers each side of a row is sorted in, kept between rows. */
const sortBuffers = [new Float64Array(64), new Float64Array(64)];

/** `values` sorted ascending in side `side`'s buffer: valid until the next row. */
function sortedInto(values: readonly number[], side: 0 | 1): Float64Array {
  const buffer = (sortBuffers[side] = bufferFor(sortBuffers[side]!, values.length));
  sortInto(values, buffer);
  return buffer.subarray(0, values.length);
}

/** The median of a sorted, non-empty sample (the mean of the middle two of an even one). */
function sortedMedian(sorted: Float64Array): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function status(row: CompareRow, input: CompareInput, fdr: number): Pick<CompareRow, 'status' | 'reason'> {
  const judgement = judge({ ratio: row.ratio, difference: row.newMedian! - row.baseMedian!, pAdjusted: row.pAdjusted!, fdr, band: input.band, direction: abDirection(input.direction) });
  if (judgement.verdict === 'worse') return { status: 'regression', reason: judgement.reason };
  if (judgement.verdict === 'better') return { status: 'improvement', reason: judgement.reason };
  if (judgement.verdict === 'changed') return { status: 'changed', reason: judgement.reason };
  const significant = row.pAdjusted! <= fdr;
  return { status: significant ? 'within noise' : 'no change', reason: judgement.reason };
}
