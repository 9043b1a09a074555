import { describe, expect, it } from 'vitest';
import type { Episode, SeriesVerdict } from '../../src/detect/index.js';
import { detectableBySeries, groupEpisodes, issueFingerprint } from '../../src/issues/group.js';
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
      episode(2, 'sum', bad, { dask: otherSha, distributed: otherSha }),
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
