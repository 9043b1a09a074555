/**
 * Descriptive summary of one sample (e.g. the repeated timings of one
 * benchmark in one night or one arm of an A/B test).
 *
 * @module
 */
import {
  max,
  mean,
  median,
  medianAbsoluteDeviation,
  min,
  sampleStandardDeviation,
} from 'simple-statistics';
import { assertFiniteSample } from './validate.js';

/** Location and spread of one sample; see {@link summarize}. */
export interface Summary {
  /** Number of values. */
  readonly n: number;
  /** Arithmetic mean. */
  readonly mean: number;
  /** Median (mean of the two middle values when `n` is even). */
  readonly median: number;
  /** Sample standard deviation (n - 1 denominator); 0 when `n < 2`. */
  readonly std: number;
  /** Coefficient of variation `std / mean`; 0 when `mean` is 0. */
  readonly cv: number;
  /** Smallest value. */
  readonly min: number;
  /** Largest value. */
  readonly max: number;
  /**
   * Raw median absolute deviation, `median(|x - median(x)|)`, NOT scaled by
   * 1.4826 (multiply by 1.4826 for a normal-consistent estimate of sigma).
   */
  readonly mad: number;
}

/**
 * Summarize a sample: count, mean, median, sample standard deviation,
 * coefficient of variation, min, max and median absolute deviation.
 *
 * Why: reports and regression checks want both the classical (mean, std, cv)
 * and the robust (median, MAD) view of the same timings, computed the same
 * way everywhere. Computations are delegated to `simple-statistics`; a
 * constant sample is special-cased so that its `std`, `cv` and `mad` are
 * exactly 0 and its `mean` exactly the value (floating-point summation
 * would otherwise leave residue like 1.7e-17).
 *
 * @param values - The sample; must be non-empty and all finite.
 * @returns The {@link Summary}.
 * @throws RangeError if `values` is empty or contains a non-finite number.
 */
export function summarize(values: readonly number[]): Summary {
  assertFiniteSample(values, 'summarize: values');
  const n = values.length;
  const lo = min(values);
  const hi = max(values);
  if (lo === hi) {
    return { n, mean: lo, median: lo, std: 0, cv: 0, min: lo, max: hi, mad: 0 };
  }
  // Here n >= 2 (a single value is a constant sample, handled above).
  const m = mean(values);
  const std = sampleStandardDeviation(values);
  return {
    n,
    mean: m,
    median: median(values),
    std,
    cv: m === 0 ? 0 : std / m,
    min: lo,
    max: hi,
    mad: medianAbsoluteDeviation(values),
  };
}
