/**
 * nightbench statistics: pure functions (no I/O, no clock, randomness only
 * from an explicit seeded source) used by regression detection and A/B tests.
 *
 * @module
 */
export { createRandom, standardNormal, type RandomSource } from './random.js';
export { summarize, type Summary } from './descriptive.js';
export { medianInterval, type MedianInterval } from './median-interval.js';
export {
  allBeyondP,
  mannWhitneyU,
  mannWhitneyUSorted,
  MANN_WHITNEY_EXACT_MAX_N,
  smallestTwoSidedP,
  type Alternative,
  type MannWhitneyMethod,
  type MannWhitneyOptions,
  type MannWhitneyResult,
} from './mann-whitney.js';
export { bootstrapRatioOfMedians, type BootstrapOptions, type RatioInterval } from './bootstrap.js';
export { benjaminiHochberg, type BenjaminiHochbergResult } from './multiple-comparisons.js';
export { relativeSpread, pooledWithinSpread, MAD_TO_SIGMA } from './noise.js';
