import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { planEpisodes } from '../../src/detect/episodes.js';
import { judgeRows, type DetectionReport } from '../../src/detect/run.js';
import { describeJudgedNight, renderReport } from '../../src/detect/table.js';
import { nightAt, seriesRows } from './helpers.js';

function reportOf(night: number): DetectionReport {
  const rows = [
    // 20 nights: from its 17th night at its level a series says what it catches (young, one night alone must reach twice the threshold).
    ...seriesRows({ seed: 41, nights: 20, repeats: 3, cv: 0.03, steps: [{ from: 18, factor: 1.2 }] }),
    ...seriesRows({ seed: 42, nights: 20, repeats: 3, cv: 0.03, workload: 'join', failedNights: [18] }),
    ...seriesRows({ seed: 43, nights: 20, repeats: 3, cv: 0.03, workload: 'rechunk' }),
  ];
  const verdicts = judgeRows(rows, [], policy, nightAt(night));
  const changes = planEpisodes(verdicts, [], policy);
  const counts = { regression: 0, improvement: 0, stable: 0, failed: 0, disturbed: 0, missing: 0, 'insufficient-baseline': 0 };
  for (const verdict of verdicts) counts[verdict.kind]++;
  const activeEpisodes = changes.flatMap((c) => (c.action === 'open' ? [c.episode] : []));
  return { night: nightAt(night), dryRun: false, verdicts, counts, changes, openedIds: [], activeEpisodes, unconfirmedEpisodes: [] };
}

describe('renderReport', () => {
  it('lists what needs a look first, summarises the rest and the episodes', () => {
    const text = renderReport(reportOf(18)).replace(/episode [0-9a-f]{16}/g, 'episode <fingerprint>');
    expect(text.split('\n')).toEqual([
      'series                                             baseline median  new median  change  p        noise  catches          verdict',
      'dask/shuffle wall_time [local:2x1:2GiB · default]  9.9 s            12 s        +21.6%  0.00049  2.9%   24% in 3 nights  regression since 2026-01-19 (one night): +21.6% (threshold 10%), p = 0.00049, 6.4x noise',
      'dask/join wall_time [local:2x1:2GiB · default]     -                -           -       -        -      -                failed: 3 of 3 repeats failed',
      'night 2026-01-19: 3 series (1 regression, 1 stable, 1 failed)',
      '(1 stable series not listed; --all lists them)',
      'open regression episode <fingerprint>: dask/shuffle wall_time [local:2x1:2GiB · default] +21.6% from 2026-01-19 (last good 2026-01-18)',
      '1 open regression episode:',
      '  dask/shuffle wall_time [local:2x1:2GiB · default] since 2026-01-19',
      'no open improvement episodes',
    ]);
    expect(renderReport(reportOf(18), { all: true })).toMatch(/dask\/rechunk wall_time .* stable\n/);
  });

  it('lists open episodes a line each, the newest ten unless --all asks for every one', () => {
    const report = reportOf(18);
    const first = report.activeEpisodes[0]!;
    const nights = Array.from({ length: 12 }, (_, i) => `2025-12-${String(10 + i).padStart(2, '0')}`);
    const many = { ...report, activeEpisodes: nights.map((night) => ({ ...first, firstBad: { ...first.firstBad, night } })) };
    const lines = renderReport(many).split('\n');
    const at = lines.indexOf('12 open regression episodes, the 10 newest:');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('  dask/shuffle wall_time [local:2x1:2GiB · default] since 2025-12-21');
    expect(lines[at + 11]).toBe('  (2 more; --all lists them)');
    expect(renderReport(many, { all: true }).split('\n')).toContain('  dask/shuffle wall_time [local:2x1:2GiB · default] since 2025-12-10');
  });

  it('names the unconfirmed episodes: kept and shown, never filed', () => {
    const report = reportOf(18);
    const unconfirmed = { ...report.activeEpisodes[0]!, id: 1, state: 'unconfirmed' as const };
    const text = renderReport({ ...report, activeEpisodes: [], unconfirmedEpisodes: [unconfirmed] });
    expect(text).toContain('1 unconfirmed episode (not reproduced on rerun, not filed): dask/shuffle wall_time [local:2x1:2GiB · default] +21.6% since 2026-01-19\nno open regression episodes');
  });

  it('says why an episode ended as retired', () => {
    const report = reportOf(18);
    const retire = { action: 'update' as const, id: 7, fingerprint: 'f00d', seriesKey: 'k', from: 'still-regressed' as const, to: 'retired' as const, lastNight: nightAt(10), latestMedian: 12, nightsBack: 0 };
    expect(renderReport({ ...report, changes: [retire], activeEpisodes: [] })).toContain('update episode f00d: still-regressed -> retired (no ok result in the nights detection reads: no longer measured)\nno open regression episodes');
  });

  it('says so when the history has no nightly run', () => {
    expect(renderReport({ ...reportOf(18), night: undefined })).toBe('no nightly runs in the history: nothing to judge');
  });
});

describe('describeJudgedNight', () => {
  it('says what the night judged and why the rest was not judged', () => {
    expect(describeJudgedNight(reportOf(18))).toBe('judged 3 series of night 2026-01-19: 1 regression, 0 improvements, 1 stable; not judged: 1 failed tonight');
    // The first nights of a history: nothing judged yet, and the line says why.
    expect(describeJudgedNight(reportOf(1))).toBe('judged 3 series of night 2026-01-02: 0 regressions, 0 improvements, 0 stable; not judged: 3 too few good nights of history yet');
    // A series of zeros is not waiting for history: it has no relative change to judge.
    const zeros = judgeRows(seriesRows({ seed: 44, nights: 12, repeats: 3, cv: 0, level: 0, workload: 'spill', metric: 'spilled_bytes' }), [], policy, nightAt(10));
    const report = reportOf(18);
    const withZeros = { ...report, verdicts: [...report.verdicts, ...zeros], counts: { ...report.counts, 'insufficient-baseline': 1 } };
    expect(zeros.map((v) => [v.kind, v.notPositive])).toEqual([['insufficient-baseline', true]]);
    expect(describeJudgedNight(withZeros)).toBe('judged 4 series of night 2026-01-19: 1 regression, 0 improvements, 1 stable; not judged: 1 failed tonight, 1 zero or negative (no relative change)');
  });
});
