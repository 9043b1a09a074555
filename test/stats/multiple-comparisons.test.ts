import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/stats/multiple-comparisons.js';
import { createRandom } from '../../src/stats/random.js';

/** O(m^2) textbook definition, independent of the implementation. */
function naiveBh(p: readonly number[]): number[] {
  const m = p.length;
  const sorted = [...p].sort((x, y) => x - y);
  return p.map((pi) => {
    // rank of pi = position of its last occurrence among sorted (ties share the best value)
    let best = 1;
    for (let j = 0; j < m; j++) if (sorted[j]! >= pi) best = Math.min(best, (m * sorted[j]!) / (j + 1));
    return Math.min(1, best);
  });
}

describe('benjaminiHochberg', () => {
  it('matches SciPy false_discovery_control on a worked example (McDonald, Handbook of Biological Statistics)', () => {
    const p = [
      0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216, 0.222, 0.251, 0.269, 0.275, 0.34,
      0.341, 0.384, 0.569, 0.594, 0.696, 0.762, 0.94, 0.942, 0.975, 0.986,
    ];
    // scipy.stats.false_discovery_control(p) (== R p.adjust(p, "BH"))
    const expected = [
      0.025, 0.1, 0.21, 0.21, 0.21, 0.25, 0.2642857142857143, 0.49107142857142866, 0.49107142857142866,
      0.49107142857142866, 0.49107142857142866, 0.49107142857142866, 0.49107142857142866, 0.49107142857142866,
      0.5328125, 0.5328125, 0.5647058823529413, 0.781578947368421, 0.781578947368421, 0.87, 0.9071428571428571,
      0.986, 0.986, 0.986, 0.986,
    ];
    const { adjusted, rejected } = benjaminiHochberg(p);
    adjusted.forEach((a, i) => expect(a).toBeCloseTo(expected[i]!, 12));
    expect(rejected.filter(Boolean).length).toBe(1);
    expect(benjaminiHochberg(p, 0.22).rejected.filter(Boolean).length).toBe(5);
  });

  it('returns results in input order (hand-computed)', () => {
    // sorted 0.005, 0.01, 0.03, 0.04 -> 4p/rank = 0.02, 0.02, 0.04, 0.04
    const { adjusted, rejected } = benjaminiHochberg([0.04, 0.01, 0.03, 0.005], 0.03);
    adjusted.forEach((a, i) => expect(a).toBeCloseTo([0.04, 0.02, 0.04, 0.02][i]!, 15));
    expect(rejected).toEqual([false, true, false, true]);
  });

  it('handles ties, p = 1 and caps at 1', () => {
    const { adjusted } = benjaminiHochberg([0.5, 0.5, 0.01, 1.0, 0.02]);
    adjusted.forEach((a, i) => expect(a).toBeCloseTo([0.625, 0.625, 0.05, 1, 0.05][i]!, 15));
    expect(benjaminiHochberg([0.9, 0.95]).adjusted).toEqual([0.95, 0.95]);
  });

  it('is monotone in p, >= p, <= 1 and equals the textbook definition on random input', () => {
    const random = createRandom(17);
    for (let rep = 0; rep < 50; rep++) {
      const m = 1 + Math.floor(random() * 60);
      const p = Array.from({ length: m }, () => (random() < 0.3 ? random() * 0.01 : random()));
      const { adjusted } = benjaminiHochberg(p);
      const reference = naiveBh(p);
      const violations: string[] = [];
      for (let i = 0; i < m; i++) {
        const a = adjusted[i]!;
        if (Math.abs(a - reference[i]!) > 1e-12) violations.push(`${i}: ${a} != reference ${reference[i]}`);
        if (a < p[i]! || a > 1) violations.push(`${i}: ${a} outside [p, 1]`);
        for (let j = 0; j < m; j++) if (p[i]! <= p[j]! && a > adjusted[j]!) violations.push(`${i},${j}: not monotone`);
      }
      expect(violations).toEqual([]);
    }
  });

  it('empty input gives empty output; a single p-value is unchanged', () => {
    expect(benjaminiHochberg([])).toEqual({ adjusted: [], rejected: [] });
    expect(benjaminiHochberg([0.03])).toEqual({ adjusted: [0.03], rejected: [true] });
  });

  it.each([
    { name: 'p > 1', p: [1.2], q: 0.05 },
    { name: 'p < 0', p: [-0.1], q: 0.05 },
    { name: 'NaN p', p: [Number.NaN], q: 0.05 },
    { name: 'q = 0', p: [0.1], q: 0 },
    { name: 'q > 1', p: [0.1], q: 1.5 },
  ])('throws RangeError on $name', ({ p, q }) => {
    expect(() => benjaminiHochberg(p, q)).toThrow(RangeError);
  });
});
