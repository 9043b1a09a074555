import { describe, expect, it } from 'vitest';
import { groupSeries, seriesOfNights } from '../../src/detect/series.js';
import { recordNightActions, type ReplayLedger } from '../../src/replay/ledger.js';
import { isTransient } from '../../src/replay/transient.js';
import { replayTotals } from '../../src/replay/totals.js';
import { group, series, tracked } from '../issues/builders.js';
import { nightAt, seriesRows } from '../detect/helpers.js';

describe('seriesOfNights', () => {
  const rows = [
    ...seriesRows({ seed: 1, nights: 40, repeats: 3, cv: 0.03, workload: 'a', failedNights: [12], absentNights: [20] }),
    ...seriesRows({ seed: 2, nights: 40, repeats: 2, cv: 0.05, workload: 'b' }),
  ];
  const whole = groupSeries(rows);

  it.each([
    [0, 39], [5, 15], [19, 21], [20, 20], [38, 45],
  ])('gives nights %i..%i of series grouped once what grouping those nights alone gives', (from, to) => {
    expect(seriesOfNights(whole, nightAt(from), nightAt(to))).toEqual(groupSeries(rows, { from: nightAt(from), to: nightAt(to) }));
  });

  it('leaves out a series with no point in the nights', () => {
    expect(seriesOfNights(whole, '2020-01-01', '2020-02-01')).toEqual([]);
  });
});

describe('isTransient', () => {
  const flat = Array.from({ length: 40 }, (_, i) => 10 + (i % 3) * 0.1);
  it.each([
    ['a blip of two results', flat.map((v, i) => (i === 20 || i === 21 ? v * 1.6 : v)), 20, true],
    ['a step that stays', flat.map((v, i) => (i >= 20 ? v * 1.5 : v)), 20, false],
    ['a 4% step (within 5%: the same level)', flat.map((v, i) => (i >= 20 ? v * 1.04 : v)), 20, true],
    ['a 6% step', flat.map((v, i) => (i >= 20 ? v * 1.06 : v)), 20, false],
    ['too close to the end to tell', flat, 35, undefined],
    ['too close to the start to tell', flat, 5, undefined],
  ])('%s', (_what, values, firstBad, expected) => {
    expect(isTransient(values, firstBad)).toBe(expected);
  });
});

describe('recordNightActions', () => {
  it('follows an issue from its opening through its comments to its closing, keeping the changes it reported', () => {
    const ledger: ReplayLedger = new Map();
    const opened = group([series('shuffle', 'open', { episodeId: 1, change: 0.5 })]);
    recordNightActions(ledger, '2026-01-10', [{ kind: 'open', group: opened }]);
    recordNightActions(ledger, '2026-01-11', [{ kind: 'comment', group: group([series('shuffle', 'still-regressed', { episodeId: 1, change: 0.45 })]), issue: tracked(opened) }]);
    recordNightActions(ledger, '2026-01-12', [{ kind: 'skip', group: opened, issue: tracked(opened), reason: 'already reported' }]);
    expect(ledger.get(opened.fingerprint)).toMatchObject({ openedNight: '2026-01-10', updatedNights: ['2026-01-11'], nightsOpen: 2, series: [{ workload: 'shuffle', change: 0.45, openedChange: 0.5 }] });
    recordNightActions(ledger, '2026-01-14', [{ kind: 'close', group: group([series('shuffle', 'recovered', { episodeId: 1, change: 0.01 })]), issue: tracked(opened) }]);
    recordNightActions(ledger, '2026-01-20', []);
    expect(ledger.get(opened.fingerprint)).toMatchObject({ closedNight: '2026-01-14', nightsOpen: 4, series: [{ change: 0.45, openedChange: 0.5 }] });
  });

  it('records nothing for a group that was never opened (held, or recovered before filing)', () => {
    const ledger: ReplayLedger = new Map();
    recordNightActions(ledger, '2026-01-10', [{ kind: 'skip', group: group([series('join')]), reason: 'waiting: machine night' }]);
    expect(ledger.size).toBe(0);
  });
});

describe('replayTotals', () => {
  const rows = [
    ...seriesRows({ seed: 3, nights: 60, repeats: 3, cv: 0.02, workload: 'stays', steps: [{ from: 30, factor: 1.5 }] }),
    ...seriesRows({ seed: 4, nights: 60, repeats: 3, cv: 0.02, workload: 'blips', steps: [{ from: 30, factor: 1.5, until: 32 }] }),
  ];
  const all = groupSeries(rows);
  const key = (workload: string) => all.find((s) => s.identity.workload === workload)!.key;
  const episode = (id: number, workload: string, firstBad: number) => ({ id, seriesKey: key(workload), firstBad: { night: nightAt(firstBad) }, identity: { suite: 'dask', workload, metric: 'wall_time', environmentName: 'local' } });
  const issue = (workload: string, id: number, openedNight: string, closedNight?: string) => ({
    fingerprint: workload, suite: 'dask', lastGoodNight: nightAt(29), firstBadNight: nightAt(30), ranges: [], openedNight, updatedNights: [], nightsOpen: 0,
    series: [{ episodeId: id, workload, metric: 'wall_time', environment: 'local', change: 0.5, openedChange: 0.5 }], ...(closedNight ? { closedNight } : {}),
  });

  it('marks the issue whose series came back transient, counts issues per year, and names the series that keep moving', () => {
    const episodes = [episode(1, 'stays', 30), episode(2, 'blips', 30), episode(3, 'blips', 40), episode(4, 'blips', 50)];
    const { issues, totals } = replayTotals([issue('stays', 1, '2025-12-31'), issue('blips', 2, '2026-01-31', '2026-02-02')], episodes as never, all);
    expect(issues.map((i) => [i.fingerprint, i.transient])).toEqual([['stays', false], ['blips', true]]);
    expect(totals).toMatchObject({ issues: 2, stillOpen: 1, perYear: { 2025: 1, 2026: 1 }, transient: { judged: 2, transient: 1, share: 0.5 }, unsettled: [{ series: 'dask blips wall_time (local)', episodes: 3 }] });
  });
});
