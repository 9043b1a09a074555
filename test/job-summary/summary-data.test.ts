import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectNightSummary } from '../../src/job-summary/summary-data.js';
import { openHistory } from '../../src/history/open.js';
import { writeSyntheticHistory } from '../helpers/synthetic-history.js';
import { sqlGet } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('nightbench-summary-data-');

describe('collectNightSummary', () => {
  const store = openHistory(path.join(dir, 'history.sqlite'));
  const history = writeSyntheticHistory(store, {
    seed: 7,
    workloads: ['shuffle', 'groupby'],
    // 20 nights: a series says what it catches from its 17th night at its level.
    nights: 20,
    repeats: 5,
    noise: 0.01,
    changes: [{ workload: 'groupby', metric: 'wall_time', night: 19, factor: 1.5 }],
    failures: [{ workload: 'shuffle', nights: [19], error: 'Traceback\nMemoryError' }],
  });
  const last = history.nights.at(-1)!;

  it('reads the latest night: its run, its failures and the regression detection finds (as a dry run)', () => {
    const input = collectNightSummary(store, { expectedShards: 1 });
    expect(input.night).toBe(last);
    expect(input.runs).toHaveLength(1);
    expect(input.runs[0]).toMatchObject({ suite: history.suites[0], repeats: { ok: 5, failed: 5 } });
    expect(input.failures.map((f) => [f.workload, f.status, f.error])).toEqual(Array.from({ length: 5 }, () => ['shuffle', 'failed', 'Traceback\nMemoryError']));
    expect(input.changes.map((c) => [c.workload, c.metric, c.kind])).toEqual([['groupby', 'wall_time', 'regression']]);
    expect(input.changes[0]!.change).toBeCloseTo(0.5, 1);
    // Every judged series says what it sees: at 1% noise and 5 repeats, what its threshold allows
    // (a change of the threshold itself measures below it half the time: 11% for 10%), within 3
    // nights: one night alone must reach twice the threshold while a series is young.
    expect(input.sensitivity!.map((s) => [s.workload, s.metric, s.withinNights])).toContainEqual(['groupby', 'cpu_time', 0.11]);
    expect(input.sensitivity!.find((s) => s.workload === 'groupby' && s.metric === 'wall_time')!.repeatsForThreshold).toBeUndefined();
    expect(input.sensitivity!.every((s) => /^this test sees an? /.test(s.text))).toBe(true);
    // A dry run: the summary never opens episodes, detection's own step does.
    expect(sqlGet(store.file, 'SELECT count(*) AS n FROM regressions')).toEqual({ n: 0 });
  });

  it('counts the series of a first night as not judged yet, none as stable', () => {
    const input = collectNightSummary(store, { night: history.nights[0] });
    expect(input.stable).toBe(0);
    expect(input.unjudged).toEqual({ youngHistory: history.workloads.length * history.metrics.length, minBaselineNights: 3, disturbed: 0, notPositive: 0 });
    expect(collectNightSummary(store).unjudged).toEqual({ youngHistory: 0, minBaselineNights: 3, disturbed: 0, notPositive: 0 });
  });

  it('judges a young history without claiming what it catches: not before its 17th night at its level', () => {
    // Its noise is known from the 10th night, but 3 nights cannot rank apart from fewer than 17.
    for (const night of [5, 12]) {
      const input = collectNightSummary(store, { night: history.nights[night] });
      expect(input.stable).toBe(history.workloads.length * history.metrics.length);
      expect(input.sensitivity).toEqual([]);
      expect(input.sensitivityUnknown).toEqual({ series: input.stable, reachNights: 17 });
    }
    expect(collectNightSummary(store).sensitivityUnknown).toEqual({ series: 0, reachNights: 17 });
  });

  it('lists runs and failures only without detection, and an earlier night on request', () => {
    const input = collectNightSummary(store, { detect: false, night: history.nights[0] });
    expect(input.night).toBe(history.nights[0]);
    expect(input.changes).toEqual([]);
    expect(input.failures).toEqual([]);
    expect(input.runs[0]!.repeats).toEqual({ ok: 10, failed: 0, timeout: 0, disturbed: 0 });
  });
});
