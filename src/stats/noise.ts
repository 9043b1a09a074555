/**
 * Night-to-night noise of a benchmark.
 *
 * Why: a 3% change means nothing for a benchmark whose nightly median
 * wanders by 5%. A robust relative spread of the recent nightly medians is
 * the yardstick for "how big a change is unusual here" on the pages and in a
 * bisect's steps, and it must not be inflated by the one bad night it is
 * supposed to catch, hence MAD rather than standard deviation. (Detection
 * itself uses the spread of successive differences, `segmentation.ts`, which
 * a level shift inside its lookback does not inflate either.)
 *
 * @module
 */
import { median, medianAbsoluteDeviation } from 'simple-statistics';
import { assertFiniteSample } from './validate.js';

/**
 * Factor that makes the MAD a consistent estimator of the standard
 * deviation for normal data: 1 / Phi^-1(3/4).
 */
export const MAD_TO_SIGMA = 1.4826;

/**
 * Robust relative spread of a series (e.g. the nightly medians of one
 * benchmark over the trailing week): `1.4826 * MAD / median`, a
 * coefficient of variation that one outlying night barely moves. For
 * normal data it estimates `sd / mean`.
 *
 * @param values - The series; must be finite.
 * @returns The relative spread (>= 0); 0 for fewer than 2 values or a
 *   constant series.
 * @throws RangeError on a non-finite value, or if the median is not > 0
 *   while the values vary (a relative spread needs a positive center).
 */
export function relativeSpread(values: readonly number[]): number {
  if (values.length === 0) return 0;
  assertFiniteSample(values, 'relativeSpread: values');
  if (values.length < 2) return 0;
  const mad = medianAbsoluteDeviation(values);
  if (mad === 0) return 0;
  const center = median(values);
  if (!(center > 0)) {
    throw new RangeError(`relativeSpread: median must be > 0, got ${center}`);
  }
  return (MAD_TO_SIGMA * mad) / center;
}

/**
 * Pooled standard deviation within groups (the repeats of each night, as logs), each value's
 * deviation from its group's mean clipped to `clip` times the deviations' robust spread
 * (`1.4826 * MAD` of them). Why: one repeat the machine disturbed (4x slower under a load spike)
 * would otherwise multiply the pooled spread for the whole lookback, and with it the noise floor
 * every later night is judged against, so a real doubling passed for noise. Normal deviations
 * are almost never clipped at 3. Degrees of freedom: the values less one per group.
 */
export function pooledWithinSpread(groups: readonly (readonly number[])[], clip = 3): { spread: number; degrees: number } {
  const deviations: number[] = [];
  let degrees = 0;
  for (const group of groups) {
    if (group.length < 2) continue;
    const mean = group.reduce((sum, value) => sum + value, 0) / group.length;
    for (const value of group) deviations.push(value - mean);
    degrees += group.length - 1;
  }
  if (degrees === 0) return { spread: 0, degrees: 0 };
  const limit = clip * MAD_TO_SIGMA * median(deviations.map(Math.abs));
  let squares = 0;
  // Where most deviations are 0 (rounded timings, ties), the MAD says nothing and nothing is clipped.
  for (const deviation of deviations) squares += limit > 0 ? Math.min(deviation * deviation, limit * limit) : deviation * deviation;
  return { spread: Math.sqrt(squares / degrees), degrees };
}

/**
 * Lag-1 correlation of a series about its own mean, as the persistence path measures it within
 * each side of a split (`strongestShift`): the sum of neighbouring deviations' products over the
 * sum of squared deviations. 0 for fewer than 3 values or no spread.
 */
export function lagOneCorrelation(values: readonly number[]): number {
  if (values.length < 3) return 0;
  const level = values.reduce((sum, value) => sum + value, 0) / values.length;
  let products = 0;
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    const deviation = values[i]! - level;
    squares += deviation * deviation;
    if (i + 1 < values.length) products += deviation * (values[i + 1]! - level);
  }
  return squares > 0 ? products / squares : 0;
}
