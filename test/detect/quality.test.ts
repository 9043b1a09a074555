import { describe, expect, it } from 'vitest';
import type { EpisodeState } from '../../src/detect/index.js';
import type { TriageCommandName, TriageEvent } from '../../src/history/triage-queries.js';
import { detectionQuality, issueOutcomes, type QualityEpisode } from '../../src/detect/quality.js';

function episode(issueNumber: number | undefined, state: EpisodeState, options: { suite?: string; workload?: string; night?: string; recovered?: string; ratio?: number; noise?: number } = {}): QualityEpisode {
  const night = options.night ?? '2026-11-02';
  return {
    fingerprint: `${issueNumber}-${options.workload ?? 'sum'}-${night}`,
    identity: { suite: options.suite ?? 'dask', workload: options.workload ?? 'sum', workloadVersion: '1', metric: 'wall_time', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1' },
    state,
    firstBad: { night, runId: 'r', commits: {} },
    ...(options.recovered ? { recoveredNight: options.recovered } : {}),
    ...(issueNumber === undefined ? {} : { issueNumber }),
    ratio: options.ratio ?? 1.3,
    baselineNoise: options.noise ?? 0.02,
  };
}

function event(issueNumber: number, command: TriageCommandName, at: string, argument?: string): TriageEvent {
  return { key: `comment:${issueNumber}-${at}`, issueNumber, episodes: [], command, ...(argument ? { argument } : {}), author: 'mia', issueOpenedAt: '2026-11-02T06:00:00Z', at };
}

const options = { now: new Date('2026-12-03T00:00:00Z'), threshold: () => 0.1 };

describe('issue verdicts', () => {
  it.each([
    ['accepted by command: true positive', [episode(1, 'accepted')], [event(1, 'accept', '2026-11-02T12:00:00Z')], { verdict: 'true-positive', reason: 'accepted', triageHours: 6 }],
    ['false alarm: false positive', [episode(1, 'accepted')], [event(1, 'false-alarm', '2026-11-03T06:00:00Z')], { verdict: 'false-positive', reason: 'false-alarm', triageHours: 24 }],
    ['the last of accept and false-alarm decides', [episode(1, 'accepted')], [event(1, 'false-alarm', '2026-11-03T06:00:00Z'), event(1, 'accept', '2026-11-04T06:00:00Z')], { verdict: 'true-positive', triageHours: 24 }],
    ['fix recorded, recovered: fixed true positive', [episode(1, 'recovered', { recovered: '2026-11-06' })], [event(1, 'fixed-by', '2026-11-03T06:00:00Z', 'abc1234')], { verdict: 'true-positive', reason: 'fixed', fixedBy: 'abc1234', fixDays: 3.75 }],
    ['fix recorded, not yet recovered: still open', [episode(1, 'still-regressed')], [event(1, 'fixed-by', '2026-11-03T06:00:00Z', 'abc1234')], { verdict: undefined, fixedBy: 'abc1234' }],
    ['closed by hand without a command: unknown', [episode(1, 'accepted')], [], { verdict: 'unknown', reason: 'closed-by-hand', triageHours: undefined }],
    ['recovered without a command: unknown', [episode(1, 'recovered', { recovered: '2026-11-05' })], [], { verdict: 'unknown', reason: 'recovered' }],
    ['a bisect alone decides nothing', [episode(1, 'open')], [event(1, 'bisect', '2026-11-02T07:00:00Z')], { verdict: undefined, triageHours: 1 }],
  ])('%s', (_name, episodes, events, expected) => {
    const [outcome] = issueOutcomes(episodes, events);
    const [present, absent] = [Object.entries(expected).filter(([, v]) => v !== undefined), Object.entries(expected).filter(([, v]) => v === undefined)];
    expect(outcome).toMatchObject(Object.fromEntries(present));
    for (const [key] of absent) expect(outcome).not.toHaveProperty(key);
  });

  it('ignores episodes without an issue', () => {
    expect(issueOutcomes([episode(undefined, 'open')], [])).toEqual([]);
  });
});

describe('detectionQuality', () => {
  const episodes = [
    episode(1, 'accepted', { night: '2026-10-10' }),
    episode(2, 'accepted', { night: '2026-11-02', workload: 'shuffle', ratio: 1.12, noise: 0.01 }),
    episode(3, 'accepted', { night: '2026-11-09', workload: 'shuffle', ratio: 1.14, noise: 0.01 }),
    episode(4, 'accepted', { night: '2026-11-12', suite: 'arrow', workload: 'join', ratio: 1.4, noise: 0.06 }),
    episode(5, 'recovered', { night: '2026-11-20', recovered: '2026-11-24' }),
    episode(6, 'still-regressed', { night: '2026-11-30' }),
    episode(7, 'open', { night: '2026-10-20' }),
  ];
  const at = (night: string, hours: number) => new Date(Date.parse(`${night}T00:00:00Z`) + hours * 3_600_000).toISOString();
  const opened = (e: TriageEvent, night: string) => ({ ...e, issueOpenedAt: `${night}T00:00:00.000Z` });
  const events = [
    opened(event(1, 'accept', at('2026-10-10', 2)), '2026-10-10'),
    opened(event(2, 'false-alarm', at('2026-11-02', 10)), '2026-11-02'),
    opened(event(3, 'false-alarm', at('2026-11-09', 4)), '2026-11-09'),
    opened(event(4, 'false-alarm', at('2026-11-12', 30)), '2026-11-12'),
    opened(event(5, 'fixed-by', at('2026-11-20', 20), 'abc1234'), '2026-11-20'),
  ];
  const quality = detectionQuality(episodes, events, options);

  it('counts verdicts and precision overall, per month and per suite; unknown apart', () => {
    expect(quality.all).toMatchObject({ key: 'all', opened: 7, truePositive: 2, falsePositive: 3, unknown: 0, open: 2, precision: 0.4, medianTriageHours: 10, medianFixDays: 4 });
    expect(quality.byMonth.map((r) => [r.key, r.opened, r.truePositive, r.falsePositive, r.open, r.precision])).toEqual([
      ['2026-10', 2, 1, 0, 1, 1],
      ['2026-11', 5, 1, 3, 1, 0.25],
    ]);
    expect(quality.bySuite.map((r) => [r.key, r.opened, r.precision])).toEqual([
      ['arrow', 1, 0],
      ['dask', 6, 0.5],
    ]);
  });

  it('sorts open issues by age into buckets, oldest first', () => {
    expect(quality.openByAge.map((b) => [b.bucket, b.issues.map((i) => i.issueNumber)])).toEqual([
      ['under a week', [6]],
      ['1 to 4 weeks', []],
      ['over 4 weeks', [7]],
    ]);
    expect(quality.openByAge[2]!.issues[0]!.ageDays).toBe(44);
  });

  it('lists the series with the most false alarms and says what would stop them, from their noise', () => {
    expect(quality.falseAlarms.map((f) => [f.suite, f.workload, f.falseAlarms, f.advice])).toEqual([
      ['dask', 'shuffle', 2, 'higher-threshold'],
      ['arrow', 'join', 1, 'more-repeats'],
    ]);
    expect(quality.falseAlarms[0]!.adviceText).toBe('a higher threshold: it is quiet (noise 1.0%) and its false steps reached 14.0%; a threshold of 15.0% for it would have stayed silent');
    expect(quality.falseAlarms[1]!.adviceText).toBe('more repeats: its nightly noise (6.0%) is over a quarter of its 10.0% threshold; four times the repeats halve it');
  });

  it('a verdict changes the precision', () => {
    const after = detectionQuality(episodes, [...events, opened(event(6, 'accept', at('2026-11-30', 1)), '2026-11-30')], options);
    expect(after.all.precision).toBeCloseTo(3 / 6);
    expect(after.all.open).toBe(1);
  });
});
