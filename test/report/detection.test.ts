import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { describe, expect, it } from 'vitest';
import type { Episode, SeriesVerdict, VerdictKind } from '../../src/detect/index.js';
import { defaultDetectionPolicy } from '../../src/detect/policy.js';
import { detectableOf, summarizeSensitivity } from '../../src/detect/sensitivity.js';
import { indexDetection, siteSeriesKey } from '../../src/report/detection.js';
import { variantOf } from '../../src/report/paths.js';
import { publishedIssues } from '../../src/report/published.js';

const identity = {
  suite: 'dask', workload: 'shuffle', workloadVersion: '1', metric: 'wall_time',
  environmentName: 'default', environmentFingerprint: 'f1', provider: 'local', clusterShape: 'local:2x1:2GiB',
};
const key = siteSeriesKey('dask', 'shuffle', 'wall_time', variantOf(identity).id);
const ref = (night: string) => ({ night, runId: `run-${night}`, commits: { 'dask/dask': 'abc' } });

function episode(overrides: Partial<Episode>): Episode {
  return {
    id: 1, kind: 'regression', fingerprint: 'fp', seriesKey: 'k', identity, unit: 's', direction: 'lower', firstBad: ref('2026-01-31'), lastGood: ref('2026-01-30'),
    baselineMedian: 10, baselineNoise: 0.02, newMedian: 15, ratio: 1.5, pValue: 0.001, state: 'open', lastNight: '2026-01-31', latestMedian: 14, nightsBack: 0,
    ...overrides,
  };
}

function verdict(kind: VerdictKind): SeriesVerdict {
  return { seriesKey: 'k', identity, unit: 's', night: '2026-02-09', kind, reason: 'because', direction: 'lower', threshold: 0.1, baselineNights: 7, skippedNights: 0 };
}

const issues = publishedIssues(new Set(), (n) => `https://example.org/issues/${n}`, episodeIssueFingerprint);

describe('indexDetection', () => {
  it('calls a series with an active episode regressed, with its issue, even when tonight looks stable', () => {
    const index = indexDetection({ verdicts: [verdict('stable')], episodes: [episode({ state: 'still-regressed', issueNumber: 12 })] }, issues);
    expect(index.judge(key)).toMatchObject({ status: 'regressed', issue: { label: '#12', href: 'https://example.org/issues/12' } });
    expect(index.judge(key).changeSinceEpisode).toBeCloseTo(0.4, 10);
    expect(index.judge(key).note).toContain('2026-01-31');
  });

  it.each([
    ['regression', 'regressed'],
    ['improvement', 'improved'],
    ['stable', 'stable'],
    ['failed', 'failing'],
    ['disturbed', 'insufficient'],
    ['missing', 'not-run'],
    ['insufficient-baseline', 'insufficient'],
  ] as const)('maps the verdict %s to %s', (kind, status) => {
    expect(indexDetection({ verdicts: [verdict(kind)], episodes: [episode({ state: 'recovered' })] }, issues).judge(key).status).toBe(status);
  });

  it('calls a series with no value above zero "zero or negative", not short of data: more nights will not judge it', () => {
    const zero = { ...verdict('insufficient-baseline'), reason: 'zero on every night: no relative change to judge', notPositive: true };
    expect(indexDetection({ verdicts: [zero], episodes: [] }, issues).judge(key)).toMatchObject({ status: 'zero', note: 'insufficient-baseline: zero on every night: no relative change to judge' });
  });

  it('says so when detection never judged a series', () => {
    expect(indexDetection({ verdicts: [], episodes: [] }, issues).judge(key)).toMatchObject({ status: 'insufficient', note: 'detection has not judged the latest night' });
  });

  it('calls a series without a result on the night detection judged "not run lately", not short of data', () => {
    const index = indexDetection({ night: '2026-08-20', verdicts: [], episodes: [] }, issues);
    expect(index.judge(key, '2023-05-04')).toEqual({ status: 'not-run', note: 'no result on 2026-08-20, the latest night; the last one is from 2023-05-04' });
    expect(index.judge(key, '2026-08-20').status).toBe('insufficient');
  });

  it('marks the first bad night of every episode and the night it recovered, linked to the issue', () => {
    const index = indexDetection({ verdicts: [], episodes: [episode({ state: 'recovered', recoveredNight: '2026-02-05', issueNumber: 3 }), episode({ id: 2, firstBad: ref('2026-02-08'), ratio: 1.2 })] }, issues);
    expect(index.markers(key, 'workloads/dask/shuffle.html')).toEqual([
      { night: '2026-01-31', kind: 'regression', label: 'regression +50.0%', issueUrl: 'https://example.org/issues/3' },
      { night: '2026-02-05', kind: 'recovery', label: 'recovered', issueUrl: 'https://example.org/issues/3' },
      { night: '2026-02-08', kind: 'regression', label: 'regression +20.0%', issueUrl: undefined },
    ]);
    expect(index.markers(siteSeriesKey('dask', 'shuffle', 'cpu_time', variantOf(identity).id), 'workloads/dask/shuffle.html')).toEqual([]);
  });
});

describe('summarizeSensitivity', () => {
  it('gives the workload page what a judged series catches, rounded up, and what it needs for its threshold', () => {
    const detectable = detectableOf({ repeats: 3, noise: 0.04, persistNoise: 0.04, repeatSpread: 0.05, baselineNights: 7, sinceNights: 30, threshold: 0.1 }, defaultDetectionPolicy);
    const index = indexDetection({ verdicts: [{ ...verdict('stable'), detectable }], episodes: [episode({ state: 'still-regressed' })] }, issues);
    // Shown for a regressed series too: what a quiet stretch would have meant.
    expect(index.judge(key).detectable).toBe(detectable);
    const shown = summarizeSensitivity(detectable);
    expect(shown).toMatchObject({ nights: 3, repeats: 3, threshold: 0.1, oneNight: 0.24, withinNights: 0.18, repeatsForThreshold: 36 });
    expect(shown.text).toBe('this test sees an 18% change in 3 nights (24% on its first night); with 36 repeats a night it would see 11% in 3 nights, its 10% threshold the limit');
  });

  it('says a judged series too new at its level is too young to tell, and claims no figure for it', () => {
    // As judge() makes it: a judged verdict before its series' 17th night at its level carries no reach, only when it will.
    const young = indexDetection({ verdicts: [{ ...verdict('stable'), reachKnownFrom: 17 }], episodes: [] }, issues).judge(key);
    expect(young).toMatchObject({ status: 'stable', reachKnownFrom: 17 });
    expect(young.detectable).toBeUndefined();
    expect(young.note).toMatch(/; too new at its level to tell what it catches \(known from its 17th night there\)$/);
    expect(indexDetection({ verdicts: [verdict('failed')], episodes: [] }, issues).judge(key).reachKnownFrom).toBeUndefined();
  });
});
