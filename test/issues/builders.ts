/** Builders of issue groups and tracked issues for the plan and render tests. */
import type { EpisodeState } from '../../src/detect/index.js';
import { issueFingerprint, type IssueGroup, type IssueSeries, type SuspectRange } from '../../src/issues/group.js';
import type { TrackedIssue } from '../../src/issues/tracker.js';

export const goodSha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
export const badSha = 'f00dfacecafe0123456789abcdef0123456789ab';
export const otherSha = '0123456789abcdef0123456789abcdef01234567';

export function series(workload: string, state: EpisodeState = 'open', overrides: Partial<IssueSeries> = {}): IssueSeries {
  return {
    episodeId: workload.length,
    workload,
    metric: 'wall_time',
    unit: 's',
    environment: { environmentName: 'default', environmentFingerprint: '0f1e2d3c4b5a6978', provider: 'local', clusterShape: 'local:2x1:2GiB' },
    state,
    lastNight: '2026-12-03',
    baselineMedian: 1.2,
    newMedian: 2.41,
    change: 2.41 / 1.2 - 1,
    pValue: 0.0005,
    noise: 0.021,
    ...overrides,
  };
}

export function group(members: IssueSeries[], ranges: SuspectRange[] = [{ repo: 'pkg', from: goodSha, to: badSha }]): IssueGroup {
  return { fingerprint: issueFingerprint('tiny', ranges, '2026-12-03'), suite: 'tiny', lastGoodNight: '2026-12-02', firstBadNight: '2026-12-03', ranges, series: members };
}

export function tracked(g: IssueGroup, overrides: Partial<TrackedIssue> = {}): TrackedIssue {
  return { fingerprint: g.fingerprint, number: 7, ref: 'acme/perf#7', state: 'open', closedByNightbench: false, reportedNights: ['2026-12-03'], notedImprovements: [], ...overrides };
}
