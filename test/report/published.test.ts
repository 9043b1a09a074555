import { describe, expect, it } from 'vitest';
import { brokenFingerprint } from '../../src/detect/failures.js';
import type { Episode } from '../../src/detect/index.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { errorHeadline, failingNightMarkers, type NightFailures } from '../../src/report/failing-nights.js';
import { fileIssues, issueHref, publishedIssues } from '../../src/report/published.js';

const identity = {
  suite: 'dask', workload: 'shuffle', workloadVersion: '1', metric: 'wall_time',
  environmentName: 'default', environmentFingerprint: 'f1', provider: 'local', clusterShape: 'local:2x1:2GiB',
};
const ref = (night: string, sha: string) => ({ night, runId: `run-${night}`, commits: { 'dask/dask': sha } });

function episode(overrides: Partial<Episode>): Episode {
  return {
    id: 1, kind: 'regression', fingerprint: 'fp', seriesKey: 'k', identity, unit: 's', direction: 'lower', firstBad: ref('2026-01-31', 'bad'), lastGood: ref('2026-01-30', 'good'),
    baselineMedian: 10, baselineNoise: 0.02, newMedian: 15, ratio: 1.5, pValue: 0.001, state: 'open', lastNight: '2026-01-31', latestMedian: 14, nightsBack: 0,
    ...overrides,
  };
}

const github = (n: number) => `https://github.com/dask/dask/issues/${n}`;
const page = 'workloads/dask/shuffle.html';

describe('publishedIssues', () => {
  const filed = episode({});
  const fileFingerprint = episodeIssueFingerprint(filed);

  it('links an episode to its GitHub issue, else to the Markdown file its issue was written to', () => {
    const issues = publishedIssues(new Set([fileFingerprint]), github, episodeIssueFingerprint);
    expect(issues.ofEpisode(episode({ issueNumber: 9 }))).toEqual({ label: '#9', href: github(9) });
    expect(issues.ofEpisode(filed)).toEqual({ label: `file ${fileFingerprint.slice(0, 8)}`, href: `issues/${fileFingerprint}.md`, file: true });
    expect(issues.ofEpisode(episode({ firstBad: ref('2026-02-03', 'other') }))).toBeUndefined();
  });

  it('labels a file a replay wrote as a replay\'s; a GitHub number still comes first', () => {
    const replayed = publishedIssues(new Set([fileFingerprint]), github, episodeIssueFingerprint, new Set([fileFingerprint]));
    expect(replayed.ofEpisode(filed)).toEqual({ label: `replay ${fileFingerprint.slice(0, 8)}`, href: `issues/${fileFingerprint}.md`, file: true, replay: true });
    expect(replayed.ofEpisode(episode({ issueNumber: 9 }))).toEqual({ label: '#9', href: github(9) });
  });

  it('gives a file link relative to the page and leaves GitHub links absolute', () => {
    const issues = publishedIssues(new Set([fileFingerprint]), github, episodeIssueFingerprint);
    expect(issueHref(issues.ofEpisode(filed)!, page)).toBe(`../../issues/${fileFingerprint}.md`);
    expect(issueHref(issues.ofEpisode(episode({ issueNumber: 9 }))!, page)).toBe(github(9));
  });

  it('lists each file issue once, whatever number of series share it', () => {
    const issues = publishedIssues(new Set([fileFingerprint]), github, episodeIssueFingerprint);
    const sibling = episode({ id: 2, seriesKey: 'k2', identity: { ...identity, metric: 'cpu_time' } });
    expect(fileIssues([filed, sibling, episode({ id: 3, issueNumber: 4 })], issues)).toEqual([
      { issue: issues.ofEpisode(filed), suite: 'dask', firstBadNight: '2026-01-31' },
    ]);
  });
});

describe('failingNightMarkers', () => {
  const night = (day: number, failedRepeats: number, hasValues: boolean, error?: string): NightFailures => ({ night: `2026-01-0${day}`, failedRepeats, hasValues, error });
  const traceback = 'Traceback (most recent call last):\n  File "x.py"\nKilledWorker: worker-1 died\n';

  it('marks a night whose repeats all failed with the error line, linked to the broken workload\'s file', () => {
    const fingerprint = brokenFingerprint({ suite: 'dask', workload: 'join', night: '2026-01-02' });
    const issues = publishedIssues(new Set([fingerprint]), github, episodeIssueFingerprint);
    const markers = failingNightMarkers('dask', 'join', [night(1, 0, true), night(2, 3, false, traceback), night(3, 3, false, traceback), night(4, 0, true)], issues, page);
    expect(markers).toEqual([
      { night: '2026-01-02', kind: 'failed', label: 'failed: KilledWorker: worker-1 died', issueUrl: `../../issues/${fingerprint}.md` },
      { night: '2026-01-03', kind: 'failed', label: 'failed: KilledWorker: worker-1 died', issueUrl: `../../issues/${fingerprint}.md` },
    ]);
  });

  it('marks a night where only some repeats failed as incomplete, and a workload that never passed has no broken issue', () => {
    const issues = publishedIssues(new Set([brokenFingerprint({ suite: 'dask', workload: 'join', night: '2026-01-01' })]), github, episodeIssueFingerprint);
    expect(failingNightMarkers('dask', 'join', [night(1, 2, false), night(2, 1, true, 'MemoryError')], issues, page)).toEqual([
      { night: '2026-01-01', kind: 'failed', label: 'failed: no error recorded' },
      { night: '2026-01-02', kind: 'incomplete', label: 'incomplete: 1 repeat failed (MemoryError)' },
    ]);
  });

  it('marks a night an incomplete run cut short apart from failures, without ending the failing streak around it', () => {
    const fingerprint = brokenFingerprint({ suite: 'dask', workload: 'join', night: '2026-01-02' });
    const issues = publishedIssues(new Set([fingerprint]), github, episodeIssueFingerprint);
    const cut: NightFailures = { ...night(3, 1, false, 'the runner was interrupted'), cutShort: { measured: 0, configured: 3 } };
    const markers = failingNightMarkers('dask', 'join', [night(1, 0, true), night(2, 3, false, traceback), cut, night(4, 3, false, traceback)], issues, page);
    expect(markers).toEqual([
      { night: '2026-01-02', kind: 'failed', label: 'failed: KilledWorker: worker-1 died', issueUrl: `../../issues/${fingerprint}.md` },
      { night: '2026-01-03', kind: 'cut-short', label: 'incomplete: run cut short (0 of 3 repeats measured; not judged)' },
      { night: '2026-01-04', kind: 'failed', label: 'failed: KilledWorker: worker-1 died', issueUrl: `../../issues/${fingerprint}.md` },
    ]);
  });

  it('names an error by its last non-empty line', () => {
    expect(errorHeadline(traceback)).toBe('KilledWorker: worker-1 died');
    expect(errorHeadline(undefined)).toBeUndefined();
  });
});
