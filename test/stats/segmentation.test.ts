import { describe, expect, it } from 'vitest';
import { changePoints, differenceNoise, segmentSeries } from '../../src/stats/segmentation.js';
import { createRandom, standardNormal } from '../../src/stats/index.js';

/** Seeded normal noise around the given levels, one value per entry. */
function noisy(levels: number[], sd: number, seed = 1): number[] {
  const random = createRandom(seed);
  return levels.map((level) => level + sd * standardNormal(random));
}
const repeat = (value: number, n: number) => Array.from({ length: n }, () => value);

describe('changePoints', () => {
  it.each([
    { name: 'one step', levels: [...repeat(10, 30), ...repeat(12, 30)], expected: [30] },
    { name: 'two steps, up then down', levels: [...repeat(10, 25), ...repeat(13, 20), ...repeat(10, 25)], expected: [25, 45] },
    { name: 'no step', levels: repeat(10, 60), expected: [] },
    { name: 'a short series with a step', levels: [...repeat(5, 8), ...repeat(7, 8)], expected: [8] },
  ])('finds $name', ({ levels, expected }) => {
    const found = changePoints(noisy(levels, 0.4, 3));
    expect(found.length).toBe(expected.length);
    found.forEach((at, i) => expect(Math.abs(at - expected[i]!)).toBeLessThanOrEqual(1));
  });

  it('ignores one wild value and a few outliers', () => {
    const values = noisy(repeat(10, 60), 0.3, 5);
    values[20] = 30;
    values[41] = -5;
    expect(changePoints(values)).toEqual([]);
  });

  it('never calls noise a change over many unchanged series', () => {
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) found += changePoints(noisy(repeat(10, 120), 1, seed)).length;
    expect(found).toBeLessThanOrEqual(4);
  });

  it('splits a noiseless series exactly where its value changes', () => {
    expect(changePoints([...repeat(0, 10), ...repeat(4096, 10)])).toEqual([10]);
    expect(changePoints(repeat(0, 20))).toEqual([]);
  });
});

describe('segmentSeries', () => {
  it('gives each segment its median level', () => {
    const segments = segmentSeries(noisy([...repeat(10, 30), ...repeat(15, 30)], 0.3, 9));
    expect(segments.map((s) => [s.start, s.end])).toEqual([[0, 30], [30, 60]]);
    expect(segments[0]!.level).toBeCloseTo(10, 0);
    expect(segments[1]!.level).toBeCloseTo(15, 0);
  });
});

describe('differenceNoise', () => {
  it('measures the noise of a series with a level shift as if there were none', () => {
    const values = noisy([...repeat(10, 100), ...repeat(20, 100)], 1, 11);
    expect(differenceNoise(values)).toBeGreaterThan(0.8);
    expect(differenceNoise(values)).toBeLessThan(1.2);
  });
});
