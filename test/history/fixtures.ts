import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CommitInfo, NewRun, RepeatRecord } from '../../src/history/types.js';

/** A run record with plausible defaults; tests override what they look at. */
export function newRun(overrides: Partial<NewRun> = {}): NewRun {
  return {
    id: randomUUID(),
    kind: 'nightly',
    suite: 'dask',
    night: '2026-12-01',
    startedAt: '2026-12-01T02:00:00.000Z',
    target: { kind: 'installed' },
    environment: {},
    commits: [],
    environmentName: 'default',
    environmentFingerprint: 'f00d',
    provider: 'local',
    clusterShape: 'local:2x1:2GiB',
    workers: 2,
    threadsPerWorker: 1,
    memoryPerWorker: 2 * 2 ** 30,
    scale: 1,
    harnessVersion: 'test',
    host: hostname(),
    pid: process.pid,
    config: {},
    ...overrides,
  };
}

export function okRepeat(runId: string, workload: string, repeat: number, wall: number): RepeatRecord {
  return {
    runId,
    workload,
    repeat,
    workloadVersion: 'v1',
    status: 'ok',
    startedAt: '2026-12-01T02:00:00.000Z',
    finishedAt: '2026-12-01T02:00:10.000Z',
    metrics: [
      { metric: 'wall_time', value: wall, unit: 's' },
      { metric: 'peak_memory', value: 1e9, unit: 'bytes' },
    ],
    samples: [{ process: 'worker-1', host: 'localhost', t: [0, 0.25], rss: [1e8, 2e8], cpu: [1, 1.2] }],
  };
}

export function commit(sha: string, overrides: Partial<CommitInfo> = {}): CommitInfo {
  return {
    repo: 'dask',
    sha,
    parents: [],
    authorName: 'Ada',
    authorEmail: 'ada@example.org',
    authoredAt: '2026-12-01T00:00:00Z',
    committedAt: '2026-12-01T00:00:00Z',
    subject: 'Speed up everything',
    ...overrides,
  };
}
