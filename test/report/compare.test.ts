import { describe, expect, it } from 'vitest';
import { appendToRuns, compareInputs, machineNightsAcross, nightsNeeded, nightsOf, packNightValues, parseSelection, selectionFragment, unpackNightValues, type CompareData, type CompareNight, type Selection } from '../../src/report/compare/selection.js';
import { compareTable, nightlyNoiseBand, ratioInterval } from '../../src/report/compare/table.js';
import { CompareCollector } from '../../src/report/compare/data.js';
import type { AbSitePage } from '../../src/ab/site-page-schema.js';
import { createRandom } from '../../src/stats/index.js';

const random = createRandom(3);
const around = (center: number, n = 8, spread = 0.01) => Array.from({ length: n }, () => center * (1 + spread * (random() - 0.5)));

describe('compareTable', () => {
  it('calls a significant slowdown beyond the band a regression, and the same change inside it within noise', () => {
    const base = around(10);
    const slower = around(12);
    const [regression, withinNoise, faster] = compareTable([
      { key: 'a', base, new: slower, direction: 'lower', band: { low: 0.95, high: 1.05 } },
      { key: 'b', base, new: slower, direction: 'lower', band: { low: 0.7, high: 1.3 } },
      { key: 'c', base, new: around(8), direction: 'lower' },
    ], {});
    expect(regression).toMatchObject({ status: 'regression' });
    expect(regression!.change).toBeCloseTo(0.2, 1);
    expect(ratioInterval({ key: 'a', base, new: slower, direction: 'lower' }, 1)!.low).toBeGreaterThan(1.1);
    expect(regression!.cliffsDelta).toBe(1);
    expect(withinNoise!.status).toBe('within noise');
    expect(faster).toMatchObject({ status: 'improvement', cliffsDelta: -1 });
  });

  it('adjusts p over the table, so many rows of pure noise raise no alarm', () => {
    const rows = compareTable(Array.from({ length: 40 }, (_, i) => ({ key: String(i), base: around(10, 5, 0.1), new: around(10, 5, 0.1), direction: 'lower' as const })), {});
    expect(rows.every((r) => r.pAdjusted! >= r.p!)).toBe(true);
    expect(rows.filter((r) => r.status === 'regression' || r.status === 'improvement')).toEqual([]);
  });

  it('says a row of too few values to test is that, not "no change", and leaves it out of the adjustment', () => {
    const doubled = { key: 'd', base: around(10, 3), new: around(20, 3), direction: 'lower' as const };
    const clear = { key: 'c', base: around(10, 5), new: around(12, 5), direction: 'lower' as const };
    const [tooFew, tested] = compareTable([doubled, clear], {});
    // 3 against 3 values: at best p = 2 / C(6, 3) = 0.1, whatever they hold.
    expect(tooFew).toMatchObject({ status: 'too few values', reason: '3 against 3 values: the rank test cannot reach p ≤ 0.05 (at best 0.10); compare more nights', cliffsDelta: 1 });
    expect(tooFew!.pAdjusted).toBeUndefined();
    expect(tooFew!.change).toBeCloseTo(1, 1);
    // Alone in the family, the 5-against-5 row keeps its p (2 / C(10, 5) = 0.0079).
    expect(tested).toMatchObject({ status: 'regression', p: 2 / 252, pAdjusted: 2 / 252 });
    // 4 against 4 can reach it (2 / 70 = 0.029): tested.
    expect(compareTable([{ ...doubled, base: around(10, 4), new: around(20, 4) }], {})[0]!.status).toBe('regression');
  });

  it('reports a row missing a side without testing it, and a metric without a direction as changed', () => {
    const [missing, changed] = compareTable([
      { key: 'm', base: [], new: [1, 2], direction: 'lower' },
      { key: 'n', base: around(10), new: around(20), direction: 'none' },
    ], {});
    expect(missing).toEqual({ key: 'm', status: 'missing', reason: 'no value in the base set' });
    expect(changed!.status).toBe('changed');
  });

  it('calls a significant rise from zero a regression, as the A/B report does, not "within noise"', () => {
    const [spilled] = compareTable([{ key: 's', base: [0, 0, 0, 0, 0, 0, 0, 0], new: around(1.2e9), direction: 'lower', band: { low: 0.9, high: 1.1 } }], {});
    expect(spilled).toMatchObject({ status: 'regression', reason: expect.stringMatching(/no ratio/) });
    expect(spilled!.ratio).toBeUndefined();
  });

  it('gives a row the same interval for the same seed, whatever other rows are computed', () => {
    const input = { key: 'a', base: around(10), new: around(11), direction: 'lower' as const };
    const first = ratioInterval(input, 5);
    ratioInterval({ ...input, key: 'b' }, 5);
    expect(ratioInterval(input, 5)).toEqual(first);
    expect(first!.low).toBeLessThan(first!.ratio);
    expect(ratioInterval({ ...input, base: [] }, 5)).toBeUndefined();
  });

  it('makes the nightly band symmetric in log space', () => {
    const band = nightlyNoiseBand(0.05);
    expect(band.high).toBeCloseTo(1.1, 10);
    expect(band.low).toBeCloseTo(1 / 1.1, 10);
  });
});

const data: CompareData = {
  generatedAt: '2026-01-05T00:00:00Z',
  nights: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'],
  commits: [{ repo: 'dask/dask', sha: 'abcdef1234', nights: [2, 3] }],
  series: [{ suite: 'dask', workload: 'shuffle', metric: 'wall_time', unit: 's', variant: 'v', href: 'workloads/dask/shuffle.html', direction: 'lower', noise: 0.02, exponent: -1 }],
  ab: [{ id: 'ab-1', title: 't', baseline: 'A', candidate: 'B', tests: [{ workload: 'shuffle', metric: 'wall_time', unit: 's', direction: 'lower', base: [1, 2], new: [3, 4], band: { low: 0.9, high: 1.1 } }] }],
};

describe('compare selection', () => {
  it('round-trips every kind of selection through the address', () => {
    const selections: Selection[] = [
      { kind: 'nightly', base: { kind: 'night', night: '2026-01-01' }, new: { kind: 'range', from: '2026-01-02', to: '2026-01-04' } },
      { kind: 'nightly', base: { kind: 'commit', repo: 'dask/dask', sha: 'abcdef' }, new: { kind: 'night', night: '2026-01-04' } },
      { kind: 'ab', id: 'ab-1' },
    ];
    for (const selection of selections) expect(parseSelection(`#${selectionFragment(selection)}`)).toEqual(selection);
    expect(parseSelection('#base=night:yesterday&new=night:2026-01-01')).toBeUndefined();
  });

  it('finds the nights of a night, a range and a commit (a short sha too)', () => {
    expect([...nightsOf(data, { kind: 'night', night: '2026-01-02' })]).toEqual([1]);
    expect([...nightsOf(data, { kind: 'range', from: '2026-01-01', to: '2026-01-02' })]).toEqual([0, 1]);
    expect([...nightsOf(data, { kind: 'commit', repo: 'dask/dask', sha: 'abcdef' })]).toEqual([2, 3]);
  });

  it('names the machine nights inside either set or between them, none outside them or for an A/B test', () => {
    const withMachine: CompareData = { ...data, machineNights: [{ night: '2026-01-02', reason: 'canary +60%' }, { night: '2026-01-04', reason: 'canary -30%' }] };
    const night = (n: string) => ({ kind: 'night' as const, night: n });
    expect(machineNightsAcross(withMachine, { kind: 'nightly', base: night('2026-01-01'), new: night('2026-01-03') })).toEqual([{ night: '2026-01-02', reason: 'canary +60%' }]);
    expect(machineNightsAcross(withMachine, { kind: 'nightly', base: night('2026-01-03'), new: { kind: 'range', from: '2026-01-04', to: '2026-01-04' } })).toEqual([{ night: '2026-01-04', reason: 'canary -30%' }]);
    expect(machineNightsAcross(withMachine, { kind: 'nightly', base: night('2026-01-03'), new: night('2026-01-03') })).toEqual([]);
    expect(machineNightsAcross(withMachine, { kind: 'ab', id: 'ab-1' })).toEqual([]);
    expect(machineNightsAcross(data, { kind: 'nightly', base: night('2026-01-01'), new: night('2026-01-04') })).toEqual([]);
  });

  it('gathers each side\'s repeats in values, and an A/B test\'s groups with its A/A band', () => {
    const selection: Selection = { kind: 'nightly', base: { kind: 'range', from: '2026-01-01', to: '2026-01-02' }, new: { kind: 'commit', repo: 'dask/dask', sha: 'abcdef1234' } };
    expect(nightsNeeded(data, selection)).toEqual([0, 1, 2, 3]);
    const nights: Record<number, CompareNight> = { 0: { runs: [0, 1, 2], values: [100, 101] }, 1: { runs: [0, 1, 1], values: [102] }, 3: { runs: [0, 1, 2], values: [130, 131] } };
    const nightly = compareInputs(data, selection, (i) => nights[i]);
    expect(nightly.inputs).toEqual([{ key: 'dask/shuffle/wall_time/v', base: [10, 10.1, 10.2], new: [13, 13.1], direction: 'lower', band: nightlyNoiseBand(0.02) }]);
    expect(nightly.subjects[0]).toMatchObject({ workload: 'shuffle', href: 'workloads/dask/shuffle.html' });
  });

  it('writes a night\'s series as runs of consecutive series with the same repeats, and reads each series\' values back', () => {
    const runs: number[] = [];
    for (const [series, repeats] of [[0, 3], [1, 3], [2, 3], [4, 3], [5, 2], [6, 2]] as const) appendToRuns(runs, series, repeats);
    expect(runs).toEqual([0, 3, 3, 4, 1, 3, 5, 2, 2]);
    const seven: CompareData = { ...data, series: Array.from({ length: 7 }, (_, i) => ({ ...data.series[0]!, workload: `w${i}`, exponent: 0 })) };
    const values = Array.from({ length: 16 }, (_, i) => i + 1);
    const night: CompareNight = { runs, values };
    const selection: Selection = { kind: 'nightly', base: { kind: 'night', night: '2026-01-01' }, new: { kind: 'night', night: '2026-01-02' } };
    const { inputs } = compareInputs(seven, selection, (i) => (i === 0 ? night : undefined));
    expect(inputs.map((input) => input.base)).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14], [15, 16]]);
  });

  it('packs a night\'s values three characters each and unpacks the same integers, and refuses one that does not fit', () => {
    const values = [0, 1, -1, 99_999, 100_000, -100_000, 131_071, -131_072, 4_096, 63, 64];
    const packed = packNightValues(values);
    expect(packed).toHaveLength(3 * values.length);
    expect(packed).toMatch(/^[A-Za-z0-9+/]+$/);
    expect([...unpackNightValues(packed)]).toEqual(values);
    expect(() => packNightValues([131_072])).toThrow(/131072 units does not fit/);
    expect(() => packNightValues([1.5])).toThrow(/1.5 units/);
  });

  it('gathers an A/B test\'s groups with its A/A band', () => {
    const ab = compareInputs(data, { kind: 'ab', id: 'ab-1' });
    expect(ab.inputs).toEqual([{ key: 'shuffle/wall_time', base: [1, 2], new: [3, 4], direction: 'lower', band: { low: 0.9, high: 1.1 } }]);
  });

  it('shows an A/B test\'s interval as its report computed it, where that is a 95% one, so both pages agree', () => {
    const comparison = { workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 13, ratio: 1.3, low: 1.21, high: 1.39, p: 0.001, verdict: 'slower', baselineValues: [9, 10, 11], candidateValues: [12, 13, 14] };
    const page = (confidence?: number): AbSitePage => ({ id: 'ab-1', title: 't', createdAt: '', baseline: { name: 'A' }, candidate: { name: 'B' }, ...(confidence ? { confidence } : {}), comparisons: [comparison] });
    const inputOf = (confidence?: number) => compareInputs(new CompareCollector(() => 'lower').finish(new Map(), [], [page(confidence)], '').data, { kind: 'ab', id: 'ab-1' }).inputs[0]!;
    expect(ratioInterval(inputOf(0.95), 1)).toEqual({ ratio: 1.3, low: 1.21, high: 1.39 });
    // Another level (or a file that does not say): the page draws its own 95% interval.
    for (const other of [inputOf(0.9), inputOf()]) {
      expect(other.interval).toBeUndefined();
      expect(ratioInterval(other, 1)).not.toEqual({ ratio: 1.3, low: 1.21, high: 1.39 });
    }
  });
});
