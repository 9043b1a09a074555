import { describe, expect, it } from 'vitest';
import { escape, missingShards, nightAnnotations, nightOutputs, renderNightSummary, type NightSummaryInput } from '../../src/job-summary/night-summary.js';

const night: NightSummaryInput = {
  night: '2026-12-01',
  runs: [
    { runId: 'r1', suite: 'dask', shard: '1/3', status: 'complete', clusterShape: 'local:2x1:2GiB', environmentName: 'default', startedAt: '2026-12-01T02:00:00Z', finishedAt: '2026-12-01T02:12:30Z', costUsd: 0.5, repeats: { ok: 9, failed: 0, timeout: 0, disturbed: 0 } },
    { runId: 'r2', suite: 'dask', shard: '3/3', status: 'partial', clusterShape: 'local:2x1:2GiB', environmentName: 'default', startedAt: '2026-12-01T02:00:00Z', finishedAt: '2026-12-01T02:06:00Z', costUsd: 0.25, repeats: { ok: 5, failed: 0, timeout: 1, disturbed: 0 } },
  ],
  failures: [
    { suite: 'dask', workload: 'shuffle', repeat: 2, status: 'timeout', error: 'Traceback\nTimeoutError: <took | too long>', failure: { class: 'code', cause: 'the workload passed its time limit' } },
  ],
  changes: [
    { suite: 'dask', workload: 'groupby', metric: 'wall_time', variant: 'local:2x1:2GiB · default', kind: 'regression', change: 0.148, newMedian: 11.48, baselineMedian: 10, unit: 's', reason: '+14.8% (threshold 10%), p = 0.0005' },
    { suite: 'dask', workload: 'join', metric: 'peak_memory', variant: 'local:2x1:2GiB · default', kind: 'improvement', change: -0.2, newMedian: 8e8, baselineMedian: 1e9, unit: 'bytes', reason: '-20.0%' },
  ],
  stable: 40,
  expectedShards: 3,
  reportUrl: 'https://example.org/nightbench/',
};

describe('renderNightSummary', () => {
  it('says how many series their threshold limits, not their noise, and lists the least sensitive first, with what they would need', () => {
    const sees = { suite: 'dask', workload: 'sum', metric: 'wall_time', variant: 'local:2x1:2GiB · default', withinNights: 0.11, oneNight: 0.12, nights: 3, repeats: 3, threshold: 0.1, text: 'this test sees an 11% change in 3 nights (12% on its first night)' };
    const blind = { suite: 'dask', workload: 'shuffle', metric: 'wall_time', variant: 'local:2x1:2GiB · default', withinNights: 0.24, nights: 3, repeats: 1, threshold: 0.1, repeatsForThreshold: 6, text: 'this test sees a 24% change in 3 nights, none on its first night alone; with 6 repeats a night it would see 11% in 3 nights, its 10% threshold the limit' };
    const markdown = renderNightSummary({ ...night, sensitivity: [sees, blind] });
    expect(markdown).toContain(['### Sensitivity', '', '1 of 2 series with a known noise are limited by their threshold, not their noise, within 3 nights.', '', '| workload | metric | repeats | first night | within 3 nights | in words |', '|---|---|--:|--:|--:|---|',
      '| dask/shuffle | wall_time | 1 | — | 24% | this test sees a 24% change in 3 nights, none on its first night alone; with 6 repeats a night it would see 11% in 3 nights, its 10% threshold the limit |',
      '| dask/sum | wall_time | 3 | 12% | 11% | this test sees an 11% change in 3 nights (12% on its first night) |'].join('\n'));
    expect(renderNightSummary(night)).not.toContain('### Sensitivity');
    // Series too new at their level for their reach to be known are counted, not given figures.
    const young = "3 judged series are too new at their level to tell what they catch: that is known from a series' 17th night at its level.";
    expect(renderNightSummary({ ...night, sensitivity: [sees, blind], sensitivityUnknown: { series: 3, reachNights: 17 } })).toContain(`within 3 nights.\n\n${young}\n\n| workload |`);
    expect(renderNightSummary({ ...night, sensitivity: [], sensitivityUnknown: { series: 3, reachNights: 17 } })).toContain(`### Sensitivity\n\n${young}\n`);
  });

  it('names the cluster and environment of a changed or listed series when the night ran several', () => {
    const on = (variant: string) => ({ ...night.changes[0]!, variant });
    const markdown = renderNightSummary({ ...night, changes: [on('asv:ubuntu-latest · conda-py3.12'), on('asv:ubuntu-latest · conda-py3.13')] });
    expect(markdown).toContain('| 🔴 regression | dask/groupby (asv:ubuntu-latest · conda-py3.12) | wall_time |');
    expect(markdown).toContain('| 🔴 regression | dask/groupby (asv:ubuntu-latest · conda-py3.13) | wall_time |');
    expect(renderNightSummary(night)).toContain('| 🔴 regression | dask/groupby | wall_time |');
  });

  it('shows the runs per shard, the missing shard, the changes, the failures and the cost', () => {
    expect(renderNightSummary(night)).toBe(
      [
        '## nightbench: night 2026-12-01',
        '',
        '1 regression · 1 improvement · 40 stable series · 1 failed repeat · **1 shard missing** · cost $0.75',
        '',
        '[History pages](https://example.org/nightbench/)',
        '',
        '### Runs',
        '',
        '| suite | shard | cluster · environment | status | ok | failed | timed out | disturbed | minutes | cost |',
        '|---|---|---|---|--:|--:|--:|--:|--:|--:|',
        '| dask | 1/3 | local:2x1:2GiB · default | complete | 9 | 0 | 0 | 0 | 12.5 | $0.50 |',
        '| dask | 3/3 | local:2x1:2GiB · default | partial | 5 | 0 | 1 | 0 | 6.0 | $0.25 |',
        '|  | 2/3 |  | **no run recorded: the shard job failed** |  |  |  |  |  |  |',
        '',
        '### Changes',
        '',
        '| | workload | metric | change | tonight | baseline | why |',
        '|---|---|---|--:|--:|--:|---|',
        '| 🔴 regression | dask/groupby | wall_time | +14.8% | 11.5 s | 10 s | +14.8% (threshold 10%), p = 0.0005 |',
        '| 🟢 improvement | dask/join | peak_memory | -20.0% | 763 MiB | 954 MiB | -20.0% |',
        '',
        '### Failures',
        '',
        '| workload | repeat | status | whose | error |',
        '|---|--:|---|---|---|',
        '| dask/shuffle | 2 | timeout | code: the workload passed its time limit | TimeoutError: &lt;took \\| too long&gt; |',
        '',
      ].join('\n'),
    );
  });

  it('counts the series detection could not judge, so that silence on a young history is not read as nothing changed', () => {
    const headline = (unjudged: NightSummaryInput['unjudged']) => renderNightSummary({ ...night, unjudged }).split('\n')[2];
    expect(headline({ youngHistory: 119, minBaselineNights: 3, disturbed: 2, notPositive: 37 })).toBe(
      '1 regression · 1 improvement · 40 stable series · 119 series not judged yet (fewer than 3 good nights of history) · 2 series not judged (too few undisturbed repeats tonight) · 37 series not judged (zero or negative: no relative change) · 1 failed repeat · **1 shard missing** · cost $0.75',
    );
    expect(headline({ youngHistory: 0, minBaselineNights: 3, disturbed: 0, notPositive: 0 })).toBe(headline(undefined));
  });

  it('says so when a night recorded nothing', () => {
    expect(renderNightSummary({ night: '2026-12-02', runs: [], failures: [], changes: [], stable: 0 })).toContain('| (no run recorded this night) |');
  });
});

describe('escape', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a | b', 'a \\| b'],
    ['line\nbreak', 'line break'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
  ])('%s', (input, expected) => expect(escape(input)).toBe(expected));
});

describe('annotations and outputs', () => {
  it('annotates each regression, each missing shard and each failing workload', () => {
    expect(nightAnnotations(night)).toEqual([
      { level: 'warning', title: 'Regression: dask/groupby wall_time +14.8%', message: 'night 2026-12-01: +14.8% (threshold 10%), p = 0.0005' },
      { level: 'error', title: 'Shard 2/3 recorded nothing', message: 'night 2026-12-01: its job failed before recording a run; the other shards were merged' },
      { level: 'warning', title: 'dask/shuffle: 1 repeat failed', message: 'TimeoutError: <took | too long>' },
    ]);
  });

  it('gives later jobs the counts', () => {
    expect(nightOutputs(night)).toEqual({ night: '2026-12-01', runs: '2', regressions: '1', improvements: '1', failures: '1', 'missing-shards': '2/3', 'cost-usd': '0.75', machine: 'false' });
  });

  it('says when the machine, not the code, moved the night, and tells later jobs', () => {
    const machine = { night: '2026-12-01', suite: '', machine: true, signs: ['canary' as const], direction: 'slower' as const, canaryChange: 0.6, judgedSeries: 10, movedSeries: 9, reason: 'canary compute_seconds +60.0%; 9 of 10 timed series moved slower together' };
    const markdown = renderNightSummary({ ...night, machine });
    expect(markdown).toContain('**machine night**: canary compute_seconds +60.0%; 9 of 10 timed series moved slower together. The machine, not the code, moved');
    expect(nightOutputs({ ...night, machine }).machine).toBe('true');
    expect(renderNightSummary({ ...night, machine: { ...machine, machine: false } })).not.toContain('machine night');
  });

  it('finds no missing shard when the night was not split', () => {
    expect(missingShards({ ...night, expectedShards: undefined })).toEqual([]);
  });
});
