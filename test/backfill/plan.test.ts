import { describe, expect, it } from 'vitest';
import { estimateSecondsLeft, nightsOfRange, parseNightsFile, planBackfill, shardNights } from '../../src/backfill/plan.js';

describe('the nights of a backfill', () => {
  it('lists every night of the range, both ends included, across a month end', () => {
    expect(nightsOfRange('2022-11-29', '2022-12-02', 1)).toEqual(['2022-11-29', '2022-11-30', '2022-12-01', '2022-12-02']);
  });

  it('samples every n-th night from the first', () => {
    expect(nightsOfRange('2022-12-01', '2022-12-10', 3)).toEqual(['2022-12-01', '2022-12-04', '2022-12-07', '2022-12-10']);
    expect(nightsOfRange('2022-12-01', '2022-12-09', 3)).toEqual(['2022-12-01', '2022-12-04', '2022-12-07']);
  });

  it.each([
    { what: 'a reversed range', run: () => nightsOfRange('2022-12-05', '2022-12-01', 1), error: /--to 2022-12-01 is before --from 2022-12-05/ },
    { what: 'a date that does not exist', run: () => nightsOfRange('2022-02-30', '2022-03-01', 1), error: /--from must be a date/ },
    { what: 'a step of 0', run: () => nightsOfRange('2022-12-01', '2022-12-02', 0), error: /--every must be a whole number/ },
    { what: 'a nights file line that is no date', run: () => parseNightsFile('2022-12-01\nyesterday\n', 'n.txt'), error: /n.txt line 2 must be a date/ },
    { what: 'an empty nights file', run: () => parseNightsFile('# none\n\n', 'n.txt'), error: /n.txt lists no night/ },
  ])('refuses $what with a usage error', ({ run, error }) => {
    expect(run).toThrow(error);
  });

  it('reads a nights file sorted, each night once, comments and blank lines ignored', () => {
    expect(parseNightsFile('2022-12-07\n# the release\n2022-12-01  # first\n\n2022-12-07\n', 'n.txt')).toEqual(['2022-12-01', '2022-12-07']);
  });

  it('gives each shard every N-th night, so that together they cover each night once', () => {
    const nights = nightsOfRange('2022-12-01', '2022-12-07', 1);
    const shards = [1, 2, 3].map((index) => shardNights(nights, { index, count: 3 }));
    expect(shards[0]).toEqual(['2022-12-01', '2022-12-04', '2022-12-07']);
    expect(shards.flat().sort()).toEqual(nights);
  });

  it('skips the nights already recorded, unless told to redo them', () => {
    const selection = nightsOfRange('2022-12-01', '2022-12-04', 1);
    const recorded = new Set(['2022-12-02', '2022-12-03', '2022-11-30']);
    expect(planBackfill(selection, { recorded, redo: false })).toEqual({
      nights: ['2022-12-01', '2022-12-02', '2022-12-03', '2022-12-04'], toRecord: ['2022-12-01', '2022-12-04'], skipped: ['2022-12-02', '2022-12-03'],
    });
    expect(planBackfill(selection, { recorded, redo: true }).toRecord).toHaveLength(4);
    expect(planBackfill(['2022-12-03', '2022-12-09'], { recorded, redo: false })).toEqual({ nights: ['2022-12-03', '2022-12-09'], toRecord: ['2022-12-09'], skipped: ['2022-12-03'] });
  });

  it('estimates the time left from the nights this start recorded', () => {
    expect(estimateSecondsLeft([], 5)).toBeUndefined();
    expect(estimateSecondsLeft([30, 50], 3)).toBe(120);
  });
});
