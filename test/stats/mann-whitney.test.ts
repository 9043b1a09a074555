import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/stats/random.js';
import { allBeyondP, mannWhitneyU, mannWhitneyUSorted, type Alternative } from '../../src/stats/mann-whitney.js';
import { brutePermutationP, bruteU, lognormalSample } from './helpers.js';

/**
 * Exact p-values for small samples without ties, from
 * scipy.stats.mannwhitneyu(a, b, alternative=..., method='exact') (SciPy 1.17);
 * the separated cases are also 2/C(n1+n2, n1) by hand (1/20, 1/252, 1/126).
 */
const EXACT_TABLE: {
  a: number[];
  b: number[];
  u: number;
  p: Record<Alternative, number>;
}[] = [
  { a: [1, 2, 3], b: [4, 5, 6], u: 0, p: { 'two-sided': 0.1, less: 0.05, greater: 1 } },
  {
    a: [1, 2, 3, 4, 5],
    b: [6, 7, 8, 9, 10],
    u: 0,
    p: { 'two-sided': 0.007936507936507936, less: 0.003968253968253968, greater: 1 },
  },
  {
    a: [1, 2, 3, 4],
    b: [5, 6, 7, 8, 9],
    u: 0,
    p: { 'two-sided': 0.015873015873015872, less: 0.007936507936507936, greater: 1 },
  },
  {
    a: [1, 2, 3, 6, 7],
    b: [4, 5, 8, 9, 10],
    u: 4,
    p: { 'two-sided': 0.09523809523809523, less: 0.047619047619047616, greater: 0.9722222222222222 },
  },
  {
    a: [1, 3, 5, 7, 9, 11],
    b: [2, 4, 6, 8, 10, 12, 13],
    u: 15,
    p: { 'two-sided': 0.4452214452214452, less: 0.2226107226107226, greater: 0.817016317016317 },
  },
  {
    a: [1.1, 2.2, 3.3, 4.4],
    b: [0.5, 5.5, 6.6, 7.7, 8.8, 9.9],
    u: 4,
    p: { 'two-sided': 0.11428571428571428, less: 0.05714285714285714, greater: 0.9666666666666667 },
  },
];

const ALTERNATIVES: Alternative[] = ['two-sided', 'less', 'greater'];

describe('mannWhitneyU: exact p-values', () => {
  for (const row of EXACT_TABLE) {
    for (const alternative of ALTERNATIVES) {
      it(`n1=${row.a.length} n2=${row.b.length} U=${row.u} ${alternative}`, () => {
        const r = mannWhitneyU(row.a, row.b, { alternative });
        expect(r.exact).toBe(true);
        expect(r.u).toBe(row.u);
        expect(r.p).toBeCloseTo(row.p[alternative], 12);
      });
    }
  }

  it('the mirrored comparison swaps U and the one-sided p-values', () => {
    const a = [1, 2, 3, 6, 7];
    const b = [4, 5, 8, 9, 10];
    const ab = mannWhitneyU(a, b, { alternative: 'less' });
    const ba = mannWhitneyU(b, a, { alternative: 'greater' });
    expect(ab.u + mannWhitneyU(b, a).u).toBe(25);
    expect(ba.p).toBeCloseTo(ab.p, 12);
  });

  it('matches brute-force enumeration of all splits on random samples', () => {
    const random = createRandom(11);
    const sizes: [number, number][] = [[2, 3], [3, 3], [4, 4], [3, 7], [5, 5], [6, 4], [7, 6]];
    for (const [n1, n2] of sizes) {
      for (let rep = 0; rep < 3; rep++) {
        const shift = rep * 0.04;
        const a = lognormalSample(random, n1, 1 + shift, 0.05);
        const b = lognormalSample(random, n2, 1, 0.05);
        const brute = brutePermutationP(a, b);
        const expected = { 'two-sided': brute.twoSided, less: brute.less, greater: brute.greater };
        for (const alternative of ALTERNATIVES) {
          const r = mannWhitneyU(a, b, { alternative });
          expect(r.exact).toBe(true);
          expect(r.u).toBe(bruteU(a, b));
          expect(r.p, `${n1}x${n2} ${alternative}`).toBeCloseTo(expected[alternative], 12);
        }
      }
    }
  });

  it('gives the smallest p of each size as allBeyondP: every value of one side beyond the other', () => {
    for (const [m, n] of [[1, 1], [3, 3], [3, 30], [5, 5], [6, 7]] as const) {
      const high = Array.from({ length: m }, (_, i) => 100 + i);
      const low = Array.from({ length: n }, (_, i) => i);
      expect(mannWhitneyU(high, low, { alternative: 'greater' }).p).toBeCloseTo(allBeyondP(m, n), 12);
    }
    expect(allBeyondP(3, 3)).toBe(1 / 20);
  });

  it('attains exactly the discrete levels 0.032 and 0.056 near 0.05 at n=5 per side', () => {
    // U=2 and U=3 out of 25: P(U<=2) = 4/252, P(U<=3) = 7/252.
    expect(mannWhitneyU([1, 2, 3, 4, 7], [5, 6, 8, 9, 10]).p).toBeCloseTo(8 / 252, 12);
    expect(mannWhitneyU([1, 2, 3, 6, 7], [4, 5, 8, 9, 10]).u).toBe(4);
    expect(mannWhitneyU([1, 2, 3, 5, 7], [4, 6, 8, 9, 10]).p).toBeCloseTo(14 / 252, 12);
  });
});

describe('mannWhitneyU: normal approximation', () => {
  it('is close to the exact p-value at moderate n (15 and 20 per side)', () => {
    const random = createRandom(23);
    let worst = 0;
    for (const n of [15, 20]) {
      for (const shift of [0, 0.01, 0.02, 0.03, 0.05]) {
        const a = lognormalSample(random, n, 1 + shift, 0.05);
        const b = lognormalSample(random, n, 1, 0.05);
        for (const alternative of ALTERNATIVES) {
          const exact = mannWhitneyU(a, b, { alternative, method: 'exact' });
          const approx = mannWhitneyU(a, b, { alternative, method: 'asymptotic' });
          expect(exact.exact).toBe(true);
          expect(approx.exact).toBe(false);
          expect(approx.u).toBe(exact.u);
          worst = Math.max(worst, Math.abs(approx.p - exact.p));
          // Relative agreement in the range where decisions are made.
          if (exact.p >= 0.01 && exact.p <= 0.2) {
            expect(approx.p / exact.p).toBeGreaterThan(0.85);
            expect(approx.p / exact.p).toBeLessThan(1.15);
          }
        }
      }
    }
    expect(worst).toBeLessThan(0.01);
  });

  it('matches SciPy in the far tail, where the approximation is ~1.5x too large', () => {
    // scipy.stats.mannwhitneyu(a, b, alternative='greater', method=...) on ranks, U = 320 of 400
    const a = [1, 2, 3, 4, ...Array.from({ length: 16 }, (_, i) => 25 + i)];
    const b = Array.from({ length: 40 }, (_, i) => i + 1).filter((r) => !a.includes(r));
    const exact = mannWhitneyU(a, b, { alternative: 'greater' });
    const approx = mannWhitneyU(a, b, { alternative: 'greater', method: 'asymptotic' });
    expect(exact.u).toBe(320);
    expect(exact.exact).toBe(true);
    expect(exact.p).toBeCloseTo(0.00041788289116238033, 14);
    expect(approx.p / 0.0006135915169981945).toBeCloseTo(1, 5);
  });

  it('uses the normal approximation beyond 40 values in total', () => {
    const random = createRandom(5);
    const r = mannWhitneyU(lognormalSample(random, 21, 1, 0.05), lognormalSample(random, 20, 1, 0.05));
    expect(r.exact).toBe(false);
    expect(() =>
      mannWhitneyU(lognormalSample(random, 21, 1, 0.05), lognormalSample(random, 20, 1, 0.05), {
        method: 'exact',
      }),
    ).toThrow(RangeError);
  });

  it('gives tiny but non-zero p-values for big separated samples', () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    const b = Array.from({ length: 100 }, (_, i) => 1000 + i);
    const r = mannWhitneyU(a, b);
    expect(r.u).toBe(0);
    expect(r.p).toBeGreaterThan(0);
    // z = (5000 - 0.5) / sqrt(100*100*201/12) = 12.21572 -> two-sided p = 2.5621e-34
    // (2 * scipy.stats.norm.sf(z)); a 1 - erf(x) evaluation would give 0.
    expect(r.p / 2.562143669163401e-34).toBeCloseTo(1, 5);
  });
});

describe('mannWhitneyU: ties', () => {
  it('matches SciPy asymptotic p-values with tie and continuity correction', () => {
    // scipy.stats.mannwhitneyu(a, b, method='asymptotic', use_continuity=True)
    const a = [1, 2, 2, 3, 3, 3, 4, 5];
    const b = [3, 4, 4, 5, 5, 6, 6, 7];
    const expected: Record<Alternative, number> = {
      'two-sided': 0.010515245935858907,
      less: 0.005257622967929454,
      greater: 0.9961506863591463,
    };
    for (const alternative of ALTERNATIVES) {
      const r = mannWhitneyU(a, b, { alternative });
      expect(r.exact).toBe(false);
      expect(r.u).toBe(7.5);
      // errorFunction has ~1e-7 fractional error
      expect(r.p).toBeCloseTo(expected[alternative], 6);
    }
  });

  it('with ties the approximation is close to the exact conditional permutation p-value', () => {
    const random = createRandom(99);
    for (let rep = 0; rep < 6; rep++) {
      // Timings rounded to a coarse clock tick: many ties.
      const a = lognormalSample(random, 8, 1 + 0.02 * rep, 0.05).map((x) => Math.round(x * 50) / 50);
      const b = lognormalSample(random, 8, 1, 0.05).map((x) => Math.round(x * 50) / 50);
      const brute = brutePermutationP(a, b);
      const r = mannWhitneyU(a, b);
      expect(r.exact).toBe(false);
      expect(Math.abs(r.p - brute.twoSided)).toBeLessThan(0.03);
    }
  });

  it('refuses method "exact" with ties', () => {
    expect(() => mannWhitneyU([1, 2, 2], [2, 3, 4], { method: 'exact' })).toThrow(RangeError);
  });

  it('all values tied gives p = 1 and U = n1*n2/2', () => {
    const r = mannWhitneyU([5, 5, 5], [5, 5, 5, 5]);
    expect(r).toEqual({ u: 6, p: 1, exact: false });
  });

  it('U with ties counts half pairs', () => {
    expect(mannWhitneyU([1, 2, 3], [2, 2, 4]).u).toBe(bruteU([1, 2, 3], [2, 2, 4]));
  });

  it('gives the same U and p from samples sorted beforehand (mannWhitneyUSorted)', () => {
    const random = createRandom(41);
    for (let trial = 0; trial < 200; trial++) {
      // Rounded to tenths, so ties come up too; sizes on both sides of the exact limit.
      const sample = (n: number) => Array.from({ length: n }, () => Math.round(random() * 30) / 10);
      const [a, b] = [sample(1 + (trial % 25)), sample(1 + ((trial * 7) % 30))];
      const sorted = (values: number[]) => Float64Array.from(values).sort();
      for (const alternative of ['two-sided', 'less', 'greater'] as const) {
        expect(mannWhitneyUSorted(sorted(a), sorted(b), { alternative })).toEqual(mannWhitneyU(a, b, { alternative }));
      }
    }
  });
});

describe('mannWhitneyU: input validation', () => {
  it.each([
    { name: 'empty a', a: [] as number[], b: [1] },
    { name: 'empty b', a: [1], b: [] as number[] },
    { name: 'NaN', a: [1, Number.NaN], b: [1, 2] },
  ])('throws RangeError on $name', ({ a, b }) => {
    expect(() => mannWhitneyU(a, b)).toThrow(RangeError);
  });

  it('throws on an unknown alternative', () => {
    expect(() => mannWhitneyU([1], [2], { alternative: 'sideways' as Alternative })).toThrow(RangeError);
  });
});
