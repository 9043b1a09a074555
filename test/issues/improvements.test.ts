import { describe, expect, it } from 'vitest';
import type { Episode } from '../../src/detect/index.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { improvementTargets, noRegressionIssue, planImprovementNotes } from '../../src/issues/improvements.js';
import { badSha, goodSha, group, tracked } from './builders.js';

const identity = { suite: 'tiny', workload: 'sum', workloadVersion: '1', metric: 'wall_time', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:1GiB' };

function episode(id: number, kind: Episode['kind'], firstBad: string, overrides: Partial<Episode> = {}): Episode {
  return {
    id, kind, fingerprint: `e${id}`.padEnd(16, '0'), seriesKey: 'sum', identity, unit: 's', direction: 'lower',
    lastGood: { night: '2026-12-01', runId: 'r0', commits: { pkg: goodSha } }, firstBad: { night: firstBad, runId: `r${id}`, commits: { pkg: `${badSha.slice(0, 39)}${id}` } },
    baselineMedian: 2, baselineNoise: 0.02, newMedian: 4, ratio: 2, pValue: 0.001, state: 'open', lastNight: firstBad, latestMedian: 4, nightsBack: 0,
    ...overrides,
  };
}

describe('improvements noted on regression issues', () => {
  const older = episode(1, 'regression', '2026-12-02', { state: 'recovered' });
  const latest = episode(2, 'regression', '2026-12-05', { state: 'accepted' });
  const otherSeries = episode(3, 'regression', '2026-12-06', { seriesKey: 'join' });
  const later = episode(4, 'regression', '2026-12-20');
  const improvement = episode(5, 'improvement', '2026-12-09');

  it('looks for the issues of earlier regressions of the same series, latest first, whatever their state', () => {
    const [target] = improvementTargets([improvement], [older, latest, otherSeries, later, improvement], []);
    expect(target!.improvement).toBe(improvement.fingerprint);
    expect(target!.issues).toEqual([episodeIssueFingerprint(latest), episodeIssueFingerprint(older)]);
    expect(improvementTargets([improvement, latest, episode(6, 'improvement', '2026-12-09', { state: 'recovered' })], [], [])).toHaveLength(1);
  });

  it.each([
    { what: 'on the latest issue found, open or closed', found: ['older', 'latest'], noted: [], expected: { kind: 'note', number: 2 } },
    { what: 'on an older one when the latest regression has no issue', found: ['older'], noted: [], expected: { kind: 'note', number: 1 } },
    { what: 'nowhere when no regression has an issue', found: [], noted: [], expected: { kind: 'skip', reason: noRegressionIssue } },
    { what: 'not twice', found: ['latest'], noted: ['improvement'], expected: { kind: 'skip', reason: 'improvement already noted', number: 2 } },
  ])('notes an improvement $what', ({ found, noted, expected }) => {
    const [target] = improvementTargets([improvement], [older, latest], []);
    const issueOf = (regression: Episode, number: number) => tracked(group([]), { fingerprint: episodeIssueFingerprint(regression), number, state: 'closed' });
    const issues = { older: issueOf(older, 1), latest: issueOf(latest, 2) };
    const existing = found.map((name) => ({ ...issues[name as keyof typeof issues], notedImprovements: noted.map(() => improvement.fingerprint) }));
    const [action] = planImprovementNotes([target!], existing);
    expect({ kind: action!.kind, ...(action!.kind === 'skip' ? { reason: action!.reason } : {}), ...('issue' in action! && action!.issue ? { number: action!.issue.number } : {}) }).toEqual(expected);
  });
});
