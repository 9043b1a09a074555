import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../src/stats/median-interval.js';
import { createRandom } from '../../src/stats/random.js';

describe('medianInterval', () => {
  it('takes the order statistics of the binomial table', () => {
    // n = 11: P(B <= 1) = 12/2048, P(B <= 2) = 67/2048, so k = 2: the 2nd and 10th values.
    const values = [5, 1, 9, 3, 7, 11, 2, 10, 4, 8, 6];
    expect(medianInterval(values)).toEqual({ n: 11, median: 6, low: 2, high: 10, coverage: 1 - 24 / 2048 });
    // n = 22: P(B <= 5) = 0.0085, P(B <= 6) = 0.026, so k = 6.
    const twentyTwo = Array.from({ length: 22 }, (_, i) => i + 1);
    expect(medianInterval(twentyTwo)).toMatchObject({ low: 6, high: 17 });
    expect(medianInterval(twentyTwo).coverage).toBeCloseTo(0.983, 3);
  });

  it('says when even the whole range covers less than the level asked for', () => {
    expect(medianInterval([3, 1, 2, 5, 4])).toEqual({ n: 5, median: 3, low: 1, high: 5, coverage: 1 - 2 / 32 });
    expect(medianInterval([7])).toEqual({ n: 1, median: 7, low: 7, high: 7, coverage: 0 });
  });

  it('covers the true median at least as often as it claims (seeded simulation, skewed values)', () => {
    const random = createRandom(7);
    const trials = 2000;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      // Exponential values: median ln 2.
      const values = Array.from({ length: 15 }, () => -Math.log(1 - random()));
      const interval = medianInterval(values);
      if (interval.low <= Math.LN2 && Math.LN2 <= interval.high) covered++;
    }
    // Claimed 0.965 for n = 15; 2000 trials give a standard error of 0.004.
    expect(medianInterval(Array.from({ length: 15 }, (_, i) => i)).coverage).toBeCloseTo(0.965, 3);
    expect(covered / trials).toBeGreaterThan(0.95);
  });

  it('refuses an empty sample', () => {
    expect(() => medianInterval([])).toThrow(RangeError);
  });
});
