import { describe, expect, it } from 'vitest';
import { summarize, type Summary } from '../../src/stats/descriptive.js';

describe('summarize', () => {
  const cases: { name: string; values: number[]; expected: Summary }[] = [
    {
      name: 'one value',
      values: [3.5],
      expected: { n: 1, mean: 3.5, median: 3.5, std: 0, cv: 0, min: 3.5, max: 3.5, mad: 0 },
    },
    {
      name: 'equal values (no floating-point residue)',
      values: [0.1, 0.1, 0.1],
      expected: { n: 3, mean: 0.1, median: 0.1, std: 0, cv: 0, min: 0.1, max: 0.1, mad: 0 },
    },
    {
      name: 'two values',
      values: [1, 3],
      expected: { n: 2, mean: 2, median: 2, std: Math.SQRT2, cv: Math.SQRT2 / 2, min: 1, max: 3, mad: 1 },
    },
    {
      name: 'odd n with an outlier',
      values: [10, 1, 2, 3, 4],
      // mean 4; deviations -3,-2,-1,0,6 -> sum sq 50, var 12.5
      expected: { n: 5, mean: 4, median: 3, std: Math.sqrt(12.5), cv: Math.sqrt(12.5) / 4, min: 1, max: 10, mad: 1 },
    },
    {
      name: 'even n',
      values: [4, 1, 3, 2],
      // median 2.5; |x - 2.5| = 1.5, 1.5, 0.5, 0.5 -> mad 1
      expected: { n: 4, mean: 2.5, median: 2.5, std: Math.sqrt(5 / 3), cv: Math.sqrt(5 / 3) / 2.5, min: 1, max: 4, mad: 1 },
    },
    {
      name: 'mean zero gives cv 0',
      values: [-1, 0, 1],
      expected: { n: 3, mean: 0, median: 0, std: 1, cv: 0, min: -1, max: 1, mad: 1 },
    },
  ];

  it.each(cases)('$name', ({ values, expected }) => {
    const s = summarize(values);
    expect(Object.keys(s).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected) as (keyof Summary)[]) {
      expect(s[key], key).toBeCloseTo(expected[key], 12);
    }
  });

  it('returns exact zeros for a constant sample', () => {
    const s = summarize([0.1, 0.1, 0.1]);
    expect(s.std).toBe(0);
    expect(s.mad).toBe(0);
    expect(s.mean).toBe(0.1);
  });

  it('does not mutate its input', () => {
    const values = [3, 1, 2];
    summarize(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it.each([
    { name: 'empty', values: [] as number[] },
    { name: 'NaN', values: [1, Number.NaN] },
    { name: 'Infinity', values: [1, Infinity] },
  ])('throws RangeError on $name input', ({ values }) => {
    expect(() => summarize(values)).toThrow(RangeError);
  });
});
