import { mean, median, sampleStandardDeviation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { HUBER_TUNING, huberLocation, huberNoiseFactor } from '../../src/stats/m-estimate.js';
import { createRandom } from '../../src/stats/random.js';
import { gaussian } from './helpers.js';

describe('huberLocation', () => {
  it('is the mean of values that all lie within the corner of it', () => {
    expect(huberLocation([9.8, 10, 10.3], 0.2)).toBeCloseTo(mean([9.8, 10, 10.3]), 9);
    expect(huberLocation([1, 2, 3, 4], 2)).toBeCloseTo(2.5, 9);
  });

  it('moves a bounded way towards one wild value: 0.67 of the scale for one of 3, however wild', () => {
    // Two values at 0 and one far off: the fixed point m solves -2m + 1.345 = 0 (in scale units).
    for (const wild of [10, 1e3, 1e6]) expect(huberLocation([0, 0, wild], 1)).toBeCloseTo(HUBER_TUNING / 2, 6);
    expect(mean([0, 0, 1e3])).toBeGreaterThan(300);
  });

  it('is the median where there is no scale to weigh by, and the value itself alone', () => {
    expect(huberLocation([1, 2, 10], 0)).toBe(2);
    expect(huberLocation([5], 1)).toBe(5);
  });

  it('rejects what it cannot weigh', () => {
    expect(() => huberLocation([], 1)).toThrow(RangeError);
    expect(() => huberLocation([1, Number.NaN], 1)).toThrow(RangeError);
  });
});

describe('huberNoiseFactor', () => {
  it('is the spread of the estimate of n normal values at their scale, relative to one value\'s (simulated)', () => {
    const random = createRandom(11);
    for (const n of [3, 4, 5, 8]) {
      const estimates = Array.from({ length: 40_000 }, () => huberLocation(Array.from({ length: n }, () => gaussian(random)), 1));
      // 40,000 estimates know their spread to about 0.4%.
      expect(sampleStandardDeviation(estimates) / huberNoiseFactor(n)).toBeGreaterThan(0.985);
      expect(sampleStandardDeviation(estimates) / huberNoiseFactor(n)).toBeLessThan(1.015);
    }
  });

  it('is 12% under the median\'s at 3 values and the mean\'s at 1 and 2', () => {
    const random = createRandom(12);
    const medians = Array.from({ length: 40_000 }, () => median([gaussian(random), gaussian(random), gaussian(random)]));
    expect(huberNoiseFactor(3) / sampleStandardDeviation(medians)).toBeLessThan(0.9);
    expect(huberNoiseFactor(1)).toBe(1);
    expect(huberNoiseFactor(2)).toBeCloseTo(Math.SQRT1_2, 12);
  });
});
