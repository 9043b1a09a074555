import { describe, expect, it } from 'vitest';
import { lagOneCorrelation, nightsWithinFloor, noiseOverFloor, pooledWithinSpread, relativeSpread } from '../../src/stats/noise.js';
import { createRandom } from '../../src/stats/random.js';
import { normalSample } from './helpers.js';

describe('relativeSpread', () => {
  it.each([
    { name: 'empty', values: [] as number[], expected: 0 },
    { name: 'one value', values: [5], expected: 0 },
    { name: 'constant', values: [3, 3, 3, 3], expected: 0 },
    // median 10, |x - 10| = 1, 0, 1, 20, 0 -> MAD 1
    { name: 'outlier barely matters', values: [9, 10, 11, 30, 10], expected: 0.14826 },
    // median 100, |x - 100| = 2, 2 -> MAD 2
    { name: 'two values', values: [98, 102], expected: 0.029652 },
  ])('$name', ({ values, expected }) => {
    expect(relativeSpread(values)).toBeCloseTo(expected, 12);
  });

  it('estimates the CV of normal data', () => {
    const random = createRandom(31);
    const values = normalSample(random, 20_000, 100, 0.05);
    expect(relativeSpread(values)).toBeGreaterThan(0.048);
    expect(relativeSpread(values)).toBeLessThan(0.052);
  });

  it('throws on non-finite values and on a non-positive center', () => {
    expect(() => relativeSpread([1, Number.NaN])).toThrow(RangeError);
    expect(() => relativeSpread([Number.NaN])).toThrow(RangeError);
    expect(() => relativeSpread([-1, 0, 1])).toThrow(RangeError);
  });
});

describe('pooledWithinSpread', () => {
  it('is the pooled standard deviation within groups, with one degree of freedom less per group', () => {
    const { spread, degrees } = pooledWithinSpread([[1, 2, 3], [10, 12], [5]]);
    // Squares: 2 (first group) + 2 (second); 2 + 1 degrees.
    expect(degrees).toBe(3);
    expect(spread).toBeCloseTo(Math.sqrt(4 / 3), 12);
  });

  it('clips a deviation at 3 robust spreads, so one wild value does not set the spread', () => {
    const calm = Array.from({ length: 20 }, (_, i) => [0.01 * (i % 3), -0.01 * (i % 2), 0]);
    const withSpike = [...calm, [Math.log(4), 0, 0]];
    expect(pooledWithinSpread(withSpike).spread).toBeLessThan(2 * pooledWithinSpread(calm).spread);
    expect(pooledWithinSpread(withSpike, Number.POSITIVE_INFINITY).spread).toBeGreaterThan(10 * pooledWithinSpread(calm).spread);
  });

  it('clips nothing where most deviations are 0 (rounded values)', () => {
    expect(pooledWithinSpread([[1, 1, 1], [1, 1, 1], [1, 1, 4]]).spread).toBeCloseTo(Math.sqrt(6 / 6), 12);
  });
});

describe('lagOneCorrelation', () => {
  it('is near 1 for nights that wander together, near -1 for nights that alternate, and 0 for too few', () => {
    const wander = Array.from({ length: 30 }, (_, i) => Math.sin(i / 5));
    expect(lagOneCorrelation(wander)).toBeGreaterThan(0.8);
    const alternate = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(lagOneCorrelation(alternate)).toBeLessThan(-0.9);
    expect(lagOneCorrelation([1, 2])).toBe(0);
    expect(lagOneCorrelation([3, 3, 3, 3])).toBe(0);
  });
});

describe('noiseOverFloor', () => {
  it('pools the nights with the repeats where the nights show no sign of spreading beyond them', () => {
    // 31 degrees of nights at 5% against 60 of repeats at 4.8%: one noise, 91 degrees.
    const pooled = noiseOverFloor(0.05, 31, 0.048, 60);
    expect(pooled.degrees).toBe(91);
    expect(pooled.noise).toBeCloseTo(Math.sqrt((0.05 ** 2 * 31 + 0.048 ** 2 * 60) / 91), 12);
  });

  it('keeps the nights\' own spread and degrees where they wander beyond the repeats', () => {
    // Variances 1.56 times apart: log 0.45 against a standard error of 0.31, 1.4 of them.
    expect(noiseOverFloor(0.06, 31, 0.048, 60)).toEqual({ noise: 0.06, degrees: 31 });
  });

  it('takes the floor below it, and the nights alone without repeats', () => {
    expect(noiseOverFloor(0.04, 31, 0.048, 60)).toEqual({ noise: 0.048, degrees: 60 });
    expect(noiseOverFloor(0.05, 31, 0.048, undefined)).toEqual({ noise: 0.05, degrees: 31 });
    expect(noiseOverFloor(0.04, 31, 0, undefined)).toEqual({ noise: 0.04, degrees: 31 });
  });
});

describe('nightsWithinFloor', () => {
  it('says the nights are their repeats\' noise where they spread no more than the repeats imply, or not clearly more', () => {
    expect(nightsWithinFloor(0.04, 31, 0.048, 60)).toBe(true);
    // Variances 1.09 times apart: 0.26 of their log ratio's standard errors.
    expect(nightsWithinFloor(0.05, 31, 0.048, 60)).toBe(true);
    // 1.56 times apart: 1.4 standard errors, beyond the one-sided 20% cut.
    expect(nightsWithinFloor(0.06, 31, 0.048, 60)).toBe(false);
  });

  it('says nothing of nights without a floor to compare with', () => {
    expect(nightsWithinFloor(0.04, 31, 0, 60)).toBe(false);
  });

  it('decides exactly where noiseOverFloor pools', () => {
    for (const spread of [0.03, 0.045, 0.05, 0.052, 0.055, 0.058, 0.06, 0.08]) {
      const pooled = noiseOverFloor(spread, 31, 0.048, 60).degrees > 31;
      expect(nightsWithinFloor(spread, 31, 0.048, 60)).toBe(pooled);
    }
  });
});
