import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../src/history/types.js';
import { medianWallTimes } from '../../src/shard/durations.js';

function row(night: string, workload: string, value: number, overrides: Partial<ResultRow> = {}): ResultRow {
  return {
    runId: `run-${night}`, kind: 'nightly', suite: 'dask', night, startedAt: `${night}T02:00:00Z`, environmentName: 'default', environmentFingerprint: 'f',
    provider: 'local', clusterShape: 'local:2x1:2GiB', workload, workloadVersion: '1', repeat: 1, status: 'ok', metric: 'wall_time', value, unit: 's',
    error: null, disturbance: null, commits: {}, ...overrides,
  };
}

describe('medianWallTimes', () => {
  it('takes the median wall time per workload over the most recent nights only', () => {
    const rows = [
      row('2026-11-01', 'shuffle', 100),
      row('2026-11-02', 'shuffle', 10),
      row('2026-11-03', 'shuffle', 12),
      row('2026-11-03', 'shuffle', 14, { repeat: 2 }),
      row('2026-11-03', 'sum', 3, { suite: 'other' }),
    ];
    expect(medianWallTimes(rows, 2)).toEqual(new Map([['dask/shuffle', 12], ['other/sum', 3]]));
  });

  it('ignores failed repeats and other metrics', () => {
    const rows = [
      row('2026-11-01', 'shuffle', 10),
      row('2026-11-01', 'shuffle', 999, { status: 'timeout', repeat: 2 }),
      row('2026-11-01', 'shuffle', 5e9, { metric: 'peak_memory', unit: 'bytes' }),
    ];
    expect(medianWallTimes(rows)).toEqual(new Map([['dask/shuffle', 10]]));
  });
});
