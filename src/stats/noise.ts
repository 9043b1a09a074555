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
 * A nightly median's noise from the nights' own spread (`spread`, with `spreadDegrees`) and the
 * floor its repeats imply (`floor`, with `floorDegrees`; undefined at one repeat), with the
 * degrees of freedom its t is read on. Below the floor, the floor with its degrees. Where the
 * nights show no sign of spreading beyond the floor (the log of their variances' ratio under
 * {@link nightsBeyondFloorZ} of its standard errors, about sqrt(2 / d1 + 2 / d2)), both measure
 * one noise: their variances pooled, with both degrees. Why: at 3 repeats the nights' spread alone
 * has about 31 degrees and the repeats' about 60 more, and a t on 31 degrees, read on the normal
 * scale, costs a real step about a fifth of its standard errors (+30% at CV 10% and 3 repeats was
 * found within 3 nights in 85% of series, 87% with the pooling, where a known noise finds 99%).
 * Nights that wander beyond their repeats keep their own spread and degrees.
 */
export function noiseOverFloor(spread: number, spreadDegrees: number, floor: number, floorDegrees: number | undefined): { noise: number; degrees: number } {
  if (floorDegrees === undefined || !(floor > 0)) return { noise: Math.max(spread, floor), degrees: spreadDegrees };
  if (spread < floor) return { noise: floor, degrees: Math.max(floorDegrees, spreadDegrees) };
  if (!nightsWithinFloor(spread, spreadDegrees, floor, floorDegrees)) return { noise: spread, degrees: spreadDegrees };
  const degrees = spreadDegrees + floorDegrees;
  return { noise: Math.sqrt((spread * spread * spreadDegrees + floor * floor * floorDegrees) / degrees), degrees };
}

/**
 * Whether nights whose levels spread `spread` (with `spreadDegrees`) show no sign of spreading
 * beyond the `floor` their repeats imply (with `floorDegrees`): under it, or the log of their
 * variances' ratio under {@link nightsBeyondFloorZ} of its standard errors. Then the nights are
 * their repeats' noise and nothing of their own.
 */
export function nightsWithinFloor(spread: number, spreadDegrees: number, floor: number, floorDegrees: number): boolean {
  if (!(floor > 0)) return false;
  if (spread <= floor) return true;
  return Math.log((spread / floor) ** 2) / Math.sqrt(2 / spreadDegrees + 2 / floorDegrees) < nightsBeyondFloorZ;
}

/**
 * The nights spread beyond their repeats' floor once their variances' log ratio stands this many
 * standard errors above 0 (one-sided 20%: pooled only where the nights show no sign of it).
 * bench/detect-quality.ts, 0.84 / 1.28 / 1.64: +30% at CV 10% and 3 repeats within 3 nights
 * 87 / 89 / 90% (85% not pooled), the bimodal series' false alarms at 3 repeats 1.0 / 1.2 / 1.3
 * (1.0), every other false alarm the same at 0.84 and 1.28 (docs/detection-design.md).
 */
export const nightsBeyondFloorZ = 0.84;

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
