/**
 * Standard normal tail probabilities (internal, not re-exported).
 *
 * Why not `simple-statistics`' `cumulativeStdNormalProbability`: it is a
 * lookup table with 0.01 steps in z, 4 decimals, and it stops at z = 3.09,
 * so every |z| above 3.09 gets the same p-value (about 0.002 two-sided).
 * That floor would make strong effects indistinguishable and distort
 * Benjamini-Hochberg across many tests. Instead we use `simple-statistics`'
 * `errorFunction`, whose rational approximation of erfc has a fractional
 * error below 1.2e-7, and take the tail from the side that keeps precision.
 *
 * @module
 */
import { errorFunction } from 'simple-statistics';

/**
 * Upper tail of the standard normal, `P(Z >= z)`.
 *
 * @param z - Any real number.
 * @returns A probability in `[0, 1]`.
 */
export function normalUpperTail(z: number): number {
  if (z >= 0) {
    // P(Z >= z) = erfc(z / sqrt 2) / 2; errorFunction returns 1 - erfc.
    return Math.min(1, Math.max(0, 0.5 * (1 - errorFunction(z / Math.SQRT2))));
  }
  return 1 - normalUpperTail(-z);
}
