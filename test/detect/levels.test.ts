import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy, judgeLevelChanges, levelSegmentation, nightlyLevels } from '../../src/detect/index.js';
import { nightAt } from './helpers.js';
import { createRandom, standardNormal } from '../../src/stats/index.js';

/** Seeded nightly medians around `level`, with relative noise `cv`. */
function nights(levels: number[], cv: number, seed = 1): number[] {
  const random = createRandom(seed);
  return levels.map((level) => level * (1 + cv * standardNormal(random)));
}
const repeat = (value: number, n: number) => Array.from({ length: n }, () => value);
const settings = levelSegmentation(defaultDetectionPolicy);

describe('nightlyLevels', () => {
  it('cuts a 30% step of a noisy series where it happened, each level near its true one', () => {
    const levels = nightlyLevels(nights([...repeat(3, 20), ...repeat(3.9, 15)], 0.03, 4), settings);
    expect(levels.map(({ start, end }) => [start, end])).toEqual([[0, 20], [20, 35]]);
    expect(levels[0]!.level).toBeCloseTo(3, 0);
    expect(levels[1]!.level / levels[0]!.level).toBeCloseTo(1.3, 1);
  });

  it('lets a night without a value belong to the level around it, and skips leading empty nights', () => {
    const medians: (number | null)[] = [null, ...nights([...repeat(10, 12), ...repeat(20, 12)], 0.02, 2)];
    medians[5] = null;
    medians[13] = null;
    const levels = nightlyLevels(medians, settings);
    expect(levels.map(({ start, end }) => [start, end])).toEqual([[1, 13], [14, 25]]);
  });

  it('finds no level shorter than the nights the persistence path needs', () => {
    const medians = nights([...repeat(10, 20), ...repeat(15, 2), ...repeat(10, 20)], 0.01, 3);
    expect(nightlyLevels(medians, levelSegmentation({ persistNights: 3 })).every(({ start, end }) => end - start >= 3)).toBe(true);
    expect(nightlyLevels(medians, levelSegmentation({ persistNights: 3 }))).toHaveLength(1);
  });

  it('gives a series that is zero every night one level at zero, and no levels to a series with no values', () => {
    expect(nightlyLevels(repeat(0, 15), settings)).toEqual([{ start: 0, end: 15, level: 0 }]);
    expect(nightlyLevels([null, null], settings)).toEqual([]);
  });
});

describe('judgeLevelChanges', () => {
  const nightList = Array.from({ length: 40 }, (_, i) => nightAt(i));
  const segments = [{ start: 0, end: 10, level: 10 }, { start: 10, end: 20, level: 10.5 }, { start: 20, end: 30, level: 13 }, { start: 30, end: 40, level: 20 }];

  it('says of each change its size and whether an episode was opened for it, it was below the threshold, or neither', () => {
    const changes = judgeLevelChanges(segments, nightList, [nightList[22]!], 0.1, 7);
    expect(changes[0]).toBeUndefined();
    expect(changes[1]).toEqual({ size: expect.closeTo(0.05, 10), decision: 'below threshold' });
    expect(changes[2]).toEqual({ size: expect.closeTo(13 / 10.5 - 1, 10), decision: 'episode', episodeNight: nightList[22] });
    expect(changes[3]).toEqual({ size: expect.closeTo(20 / 13 - 1, 10), decision: 'not judged' });
  });
});
