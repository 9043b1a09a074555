import { describe, expect, it } from 'vitest';
import type { SeriesVerdict } from '../../src/detect/judge.js';
import { isSuiteWide, machineNight } from '../../src/detect/machine-night.js';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';

const identity = { suite: 'dask', workloadVersion: '1', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB' };

/** A judged verdict: `change` at `multiple` times its noise. */
function judged(workload: string, metric: string, change: number, multiple: number, unit = 's'): SeriesVerdict {
  return {
    seriesKey: `${workload}/${metric}`, identity: { ...identity, workload, metric }, unit, night: '2026-02-01', kind: 'stable', reason: '', direction: 'lower',
    threshold: 0.1, baselineNights: 7, skippedNights: 0, change, noiseMultiple: multiple,
  };
}

const quiet = ['shuffle', 'join', 'groupby', 'matmul', 'spill'].map((w, i) => judged(w, 'wall_time', 0.01 * (i - 2), 0.5));

describe('machineNight', () => {
  it('marks nothing on a night where the canary and the series stay within their noise', () => {
    const found = machineNight('2026-02-01', undefined, [...quiet, judged('canary', 'compute_seconds', 0.02, 0.8)], policy);
    expect(found).toMatchObject({ machine: false, signs: [], judgedSeries: 5, movedSeries: 0, canaryChange: 0.02 });
    expect(found.reason).toBe('canary compute_seconds +2.0% (within its noise); 0 of 5 timed series moved slower together');
  });

  it('marks a night its canary moved beyond its noise, even when the other series did not', () => {
    const found = machineNight('2026-02-01', 'dask', [...quiet, judged('canary', 'wall_time', 0.3, 6), judged('canary', 'compute_seconds', 0.45, 9)], policy);
    expect(found).toMatchObject({ machine: true, signs: ['canary'], direction: 'slower', canaryChange: 0.45, suite: 'dask' });
  });

  it('marks a night most timed series moved the same way (common mode), and not when few did or they split', () => {
    const loaded = quiet.map((v, i) => (i < 3 ? { ...v, change: 0.3, noiseMultiple: 5 } : v));
    expect(machineNight('2026-02-01', undefined, loaded, policy)).toMatchObject({ machine: true, signs: ['common-mode'], direction: 'slower', movedSeries: 3, judgedSeries: 5 });
    // The same move with a commit of the target between the nights is the code's, not the machine's.
    const ref = (night: string, sha: string) => ({ night, runId: night, commits: { dask: sha } });
    const withCommit = loaded.map((v) => ({ ...v, latest: ref('2026-02-01', 'b'), lastGood: ref('2026-01-31', 'a') }));
    expect(machineNight('2026-02-01', undefined, withCommit, policy)).toMatchObject({ machine: false, signs: [] });
    const sameCode = loaded.map((v) => ({ ...v, latest: ref('2026-02-01', 'a'), lastGood: ref('2026-01-31', 'a') }));
    expect(machineNight('2026-02-01', undefined, sameCode, policy)).toMatchObject({ machine: true, signs: ['common-mode'] });
    const faster = quiet.map((v) => ({ ...v, change: -0.25, noiseMultiple: 4 }));
    expect(machineNight('2026-02-01', undefined, faster, policy)).toMatchObject({ machine: true, direction: 'faster' });
    // One workload's regression across its metrics is the code's: two of five.
    const oneWorkload = quiet.map((v, i) => (i < 2 ? { ...v, change: 0.5, noiseMultiple: 10 } : v));
    expect(machineNight('2026-02-01', undefined, oneWorkload, policy).machine).toBe(false);
    const split = quiet.map((v, i) => (i < 2 ? { ...v, change: 0.3, noiseMultiple: 5 } : i < 4 ? { ...v, change: -0.3, noiseMultiple: 5 } : v));
    expect(machineNight('2026-02-01', undefined, split, policy).machine).toBe(false);
    // Changes within twice their noise, or under half the threshold, are not moves.
    expect(machineNight('2026-02-01', undefined, quiet.map((v) => ({ ...v, change: 0.3, noiseMultiple: 1.5 })), policy).machine).toBe(false);
    expect(machineNight('2026-02-01', undefined, quiet.map((v) => ({ ...v, change: 0.04, noiseMultiple: 8 })), policy).machine).toBe(false);
  });

  it('counts only timed series and needs a few of them', () => {
    const bytes = quiet.map((v) => ({ ...v, unit: 'bytes', change: 0.3, noiseMultiple: 5 }));
    expect(machineNight('2026-02-01', undefined, bytes, policy)).toMatchObject({ machine: false, judgedSeries: 0 });
    const three = quiet.slice(0, 3).map((v) => ({ ...v, change: 0.3, noiseMultiple: 5 }));
    expect(machineNight('2026-02-01', undefined, three, policy).machine).toBe(false);
  });
});

describe('isSuiteWide', () => {
  it.each([
    [354, 40, true],
    [354, 30, false],
    [354, 3, false],
    [8, 4, true],
    [100, 9, false],
  ])('%i judged timed series, %i moved the same way: %s', (judgedSeries, movedSeries, expected) => {
    expect(isSuiteWide({ judgedSeries, movedSeries })).toBe(expected);
  });
});

describe('a suite-wide move', () => {
  it('is many workloads moving together, not one workload moving all its timed metrics', () => {
    const oneWorkload = ['wall_time', 'work_time', 'cpu_time', 'compute_time'].map((metric) => judged('target_work', metric, 3, 8));
    const alone = machineNight('2026-02-01', undefined, [...oneWorkload, judged('quick_sum', 'wall_time', 0.01, 0.5)], policy);
    expect(alone).toMatchObject({ movedSeries: 4, movedWorkloads: 1 });
    expect(isSuiteWide(alone)).toBe(false);
    const fourWorkloads = ['shuffle', 'join', 'groupby', 'matmul'].map((workload) => judged(workload, 'wall_time', 0.3, 6));
    const together = machineNight('2026-02-01', undefined, [...fourWorkloads, ...quiet.slice(4)], policy);
    expect(together).toMatchObject({ movedSeries: 4, movedWorkloads: 4 });
    expect(isSuiteWide(together)).toBe(true);
  });
});
