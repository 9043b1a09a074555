import { describe, expect, it } from 'vitest';
import type { Episode, SeriesVerdict } from '../../src/detect/index.js';
import { detectableBySeries, episodeIssueFingerprint, groupEpisodes, issueFingerprint, issueMembership } from '../../src/issues/group.js';
import { badSha, goodSha, otherSha } from './builders.js';

function episode(id: number, workload: string, lastGood: Record<string, string>, firstBad: Record<string, string>, overrides: Partial<Episode> = {}): Episode {
  return {
    id, kind: 'regression', fingerprint: `episode-${id}`, seriesKey: `["tiny","${workload}"]`, unit: 's', direction: 'lower',
    identity: { suite: 'tiny', workload, workloadVersion: '1', metric: 'wall_time', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:1GiB' },
    lastGood: { night: '2026-12-02', runId: 'r1', commits: lastGood }, firstBad: { night: '2026-12-03', runId: 'r2', commits: firstBad },
    baselineMedian: 2, baselineNoise: 0.02, newMedian: 4, ratio: 2, pValue: 0.001, state: 'open', lastNight: '2026-12-04', latestMedian: 3, nightsBack: 0,
    ...overrides,
  };
}

describe('groupEpisodes', () => {
  const good = { dask: goodSha, distributed: otherSha };
  const bad = { dask: badSha, distributed: otherSha };

  it('puts every series slowed by one range into one group, in the target\'s repository order', () => {
    const groups = groupEpisodes([episode(1, 'sum', good, bad), episode(2, 'shuffle', good, bad)], ['distributed', 'dask']);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.ranges).toEqual([{ repo: 'distributed', from: otherSha, to: otherSha }, { repo: 'dask', from: goodSha, to: badSha }]);
    expect(groups[0]!.fingerprint).toBe(issueFingerprint('tiny', groups[0]!.ranges, '2026-12-03'));
    expect(groups[0]!.series.map((s) => [s.workload, s.episodeId])).toEqual([['shuffle', 2], ['sum', 1]]);
  });

  it('shows the latest median and its change against the pre-regression level', () => {
    const [group] = groupEpisodes([episode(1, 'sum', good, bad)]);
    expect(group!.series[0]).toMatchObject({ baselineMedian: 2, newMedian: 3, change: 0.5, pValue: 0.001, noise: 0.02, state: 'open' });
  });

  it('keeps different ranges and suites apart', () => {
    const groups = groupEpisodes([
      episode(1, 'sum', good, bad),
      episode(2, 'sum', bad, { dask: otherSha, distributed: otherSha }, { lastGood: { night: '2026-12-05', runId: 'r5', commits: bad }, firstBad: { night: '2026-12-06', runId: 'r6', commits: { dask: otherSha, distributed: otherSha } } }),
      episode(3, 'sum', good, bad, { identity: { ...episode(3, 'sum', good, bad).identity, suite: 'dask' } }),
    ]);
    expect(groups).toHaveLength(3);
  });

  it('tells regressions of a target without commits (installed packages) apart by their first bad night', () => {
    const first = groupEpisodes([episode(1, 'sum', {}, {})]);
    const later = groupEpisodes([episode(2, 'sum', {}, {}, { firstBad: { night: '2026-12-09', runId: 'r9', commits: {} } })]);
    expect(first[0]!.ranges).toEqual([]);
    expect(first[0]!.fingerprint).not.toBe(later[0]!.fingerprint);
  });

  it('gives a repository that appears on one side only an empty range', () => {
    const [group] = groupEpisodes([episode(1, 'sum', { dask: goodSha }, { dask: badSha, extra: otherSha })], ['dask']);
    expect(group!.ranges).toEqual([{ repo: 'dask', from: goodSha, to: badSha }, { repo: 'extra', from: otherSha, to: otherSha }]);
  });

  it("gives each series what it can detect, from the reported night's verdict of the same series", () => {
    const detectable = { repeats: 3, noise: 0.11, firstNight: 0.45, persistent: 0.18, nights: 3 };
    const verdicts = [
      { seriesKey: '["tiny","sum"]', detectable },
      { seriesKey: '["tiny","shuffle"]' },
    ] as SeriesVerdict[];
    const [group] = groupEpisodes([episode(1, 'sum', good, bad), episode(2, 'shuffle', good, bad)], [], detectableBySeries(verdicts));
    expect(group!.series.map((s) => [s.workload, s.detectable])).toEqual([['shuffle', undefined], ['sum', detectable]]);
  });
});

describe('issueMembership: one change, one issue, however its series measured it', () => {
  const night = (day: number) => `2026-12-${String(day).padStart(2, '0')}`;
  const sha = (day: number) => `${String(day).padStart(2, '0')}${'a'.repeat(38)}`;
  /** An episode of `workload` whose range runs from night `good` to night `bad`. */
  const ranged = (id: number | undefined, workload: string, good: number, bad: number, overrides: Partial<Episode> = {}): Episode =>
    episode(id as number, workload, {}, {}, {
      lastGood: { night: night(good), runId: `r${good}`, commits: { dask: sha(good) } },
      firstBad: { night: night(bad), runId: `r${bad}`, commits: { dask: sha(bad) } },
      ...overrides,
    });

  it('puts episodes whose ranges share a night into the issue of the first that opened, and keeps others apart', () => {
    // The change on night 5: one series saw it on night 5 (range 4..5), another only on night 6
    // with night 5 ambiguous (range 4..6); a third series moved on night 9.
    const episodes = [ranged(1, 'sum', 4, 5), ranged(2, 'shuffle', 4, 6), ranged(3, 'join', 8, 9)];
    const membership = issueMembership(episodes, new Map());
    expect(membership[1]).toBe(membership[0]);
    expect(membership[2]).not.toBe(membership[0]);
    expect(membership[0]).toBe(episodeIssueFingerprint(episodes[0]!));
    const groups = groupEpisodes(episodes, [], new Map(), new Map(), membership);
    expect(groups.map((g) => g.series.map((s) => s.workload))).toEqual([['sum', 'shuffle'], ['join']]);
    // The group shows the range of the episode that names it.
    expect(groups[0]!.ranges).toEqual([{ repo: 'dask', from: sha(4), to: sha(5) }]);
  });

  it('keeps an episode in the issue it joined after the episode that named it recovered and left the report', () => {
    const first = issueMembership([ranged(1, 'sum', 4, 5), ranged(2, 'shuffle', 4, 6)], new Map());
    const later = issueMembership([ranged(2, 'shuffle', 4, 6, { issueFingerprint: first[1] })], new Map([[first[0]!, 'open']]));
    expect(later).toEqual([first[0]]);
  });

  it('never puts a new episode into an issue that recovered or that a maintainer closed', () => {
    const recovered = ranged(1, 'sum', 4, 5, { state: 'recovered', recoveredNight: night(7) });
    expect(new Set(issueMembership([recovered, ranged(2, 'shuffle', 4, 6)], new Map())).size).toBe(2);
    const closed = issueMembership([ranged(1, 'sum', 4, 5)], new Map())[0]!;
    expect(new Set(issueMembership([ranged(1, 'sum', 4, 5), ranged(2, 'shuffle', 4, 6)], new Map([[closed, 'closed']]))).size).toBe(2);
  });

  it('gives a series found regressed after its range\'s issue recovered and was closed an issue of its own', () => {
    const recovered = ranged(1, 'sum', 4, 5, { state: 'recovered', recoveredNight: night(7) });
    const own = episodeIssueFingerprint(recovered);
    // Another series of the same change, found late (after the issue closed): the same range.
    const late = ranged(2, 'shuffle', 4, 5);
    expect(episodeIssueFingerprint(late)).toBe(own);
    const membership = issueMembership([recovered, late], new Map([[own, 'recovered']]));
    expect(membership[0]).toBe(own);
    expect(membership[1]).not.toBe(own);
    // The next night (its issue not yet stored, say GitHub failed): the same new issue.
    expect(issueMembership([late], new Map([[own, 'recovered']]))).toEqual([membership[1]]);
    // Closed by a maintainer instead: it joins that issue, whose plan accepts it with the others.
    expect(issueMembership([recovered, late], new Map([[own, 'closed']]))[1]).toBe(own);
  });

  it("keeps an episode grouped before overlaps were joined in the issue its own range names, when that issue exists", () => {
    const episodes = [ranged(1, 'sum', 4, 5), ranged(2, 'shuffle', 4, 6)];
    const own = episodeIssueFingerprint(episodes[1]!);
    expect(issueMembership(episodes, new Map([[own, 'open']]))[1]).toBe(own);
  });

  it('joins only episodes of the same suite and kind', () => {
    const improvement = ranged(2, 'shuffle', 4, 6, { kind: 'improvement' });
    const otherSuite = ranged(3, 'join', 4, 6, { identity: { ...ranged(3, 'join', 4, 6).identity, suite: 'dask' } });
    expect(new Set(issueMembership([ranged(1, 'sum', 4, 5), improvement, otherSuite], new Map())).size).toBe(3);
  });
});
