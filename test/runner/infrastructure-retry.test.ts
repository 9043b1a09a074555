import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostTroubleError, type Cluster, type ClusterProvider } from '../../src/cluster/types.js';
import type { RepeatRecord } from '../../src/history/types.js';
import { silentLog } from '../../src/log.js';
import { runSuite, type RunPlan } from '../../src/runner/runner.js';
import { loadSuite } from '../../src/suite/suite.js';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * A provider whose first `startFailures` clusters fail to start (with `startError`); the others
 * run every workload command at once, as `exitCode` says, and on the first cluster `lostHosts`
 * hosts are lost under the first repeat.
 */
function flakyProvider(startFailures: number, exitCode = 0, options: { startError?: () => Error; lostHosts?: number } = {}): ClusterProvider & { starts: number } {
  let lostHosts = options.lostHosts ?? 0;
  const provider = {
    name: 'flaky',
    description: '',
    optionsSchema: undefined as never,
    starts: 0,
    start: async (): Promise<Cluster> => {
      provider.starts++;
      if (startFailures-- > 0) throw options.startError?.() ?? new Error('no capacity for the scheduler');
      return {
        provider: 'flaky',
        schedulerAddress: 'tcp://127.0.0.1:1',
        runCommand: async (spec) => {
          // The suite's ready and reset steps get an unused metrics file; only the workload itself fails.
          const code = spec.env?.NIGHTBENCH_METRICS_FILE?.endsWith('unused.json') ? 0 : exitCode;
          if (code === 0) writeFileSync(spec.env!.NIGHTBENCH_METRICS_FILE!, JSON.stringify({ metrics: {} }));
          return { exitCode: code, signal: null, timedOut: false, durationMs: 10, stdout: '', stderrTail: code === 0 ? '' : 'RuntimeError: planted' };
        },
        sampleTargets: () => [],
        takeExits: () => [],
        takeHostLosses: async () => {
          const lost = Array.from({ length: lostHosts }, (_, i) => `worker host i-${i} left running (terminated)`);
          lostHosts = 0;
          return lost;
        },
        info: () => ({ startupSeconds: 0 }),
        stop: async () => undefined,
      };
    },
  };
  return provider;
}

function plan(retry: boolean | undefined): RunPlan {
  const suite = loadSuite(path.join(repoRoot, 'test/fixtures/suites/cheap'));
  return {
    runId: 'run-1',
    suite,
    workloads: [{ name: 'work', description: '', version: '1', tags: [], metrics: [] }] as never,
    repeats: 2,
    timeLimitSeconds: 10,
    scale: 1,
    sampleIntervalSeconds: 1,
    workdir: tempDir('nb-retry-'),
    cluster: { shape: { workers: 1, threadsPerWorker: 1, memoryPerWorker: 2 ** 30 }, scheduler: [], worker: [], placeholders: {}, env: {}, startTimeoutSeconds: 5, options: {}, runId: 'run-1' } as never,
    ...(retry === undefined ? {} : { retryInfrastructure: () => retry }),
  };
}

async function run(provider: ClusterProvider, retry: boolean | undefined): Promise<RepeatRecord[]> {
  const records: RepeatRecord[] = [];
  await runSuite(plan(retry), { provider, sink: { recordRepeat: (r) => void records.push(r) }, log: silentLog });
  return records;
}

describe('a repeat that failed for the machine', () => {
  it('is recorded as an infrastructure failure with its cause and retried once on a fresh cluster', async () => {
    const provider = flakyProvider(1);
    const records = await run(provider, true);
    expect(records.map((r) => [r.repeat, r.status, r.failure])).toEqual([
      [1, 'failed', { class: 'infrastructure', cause: 'the cluster did not start or could not be reset' }],
      [2, 'ok', undefined],
      [3, 'ok', undefined],
    ]);
    expect(records[0]!.error).toMatch(/cluster: no capacity for the scheduler/);
  });

  it('is retried only once, and not when the budget has no room or nobody asked', async () => {
    expect((await run(flakyProvider(5), true)).map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await run(flakyProvider(1), false)).map((r) => r.status)).toEqual(['failed', 'ok']);
    expect((await run(flakyProvider(1), undefined)).map((r) => r.status)).toEqual(['failed', 'ok']);
  });

  it('names no capacity for a host as its cause, and retries it like any failure of the machine', async () => {
    const records = await run(flakyProvider(1, 0, { startError: () => new HostTroubleError('capacity', 'ec2: no capacity for the 2 workers in any instance type') }), true);
    expect(records.map((r) => [r.repeat, r.status, r.failure])).toEqual([
      [1, 'failed', { class: 'infrastructure', cause: 'no capacity for a host' }],
      [2, 'ok', undefined],
      [3, 'ok', undefined],
    ]);
  });

  it('records a run whose hosts found no capacity as the first repeat\'s failure, and leases again for the retry', async () => {
    const hosts = flakyProvider(0);
    let leases = 0;
    const leasing: ClusterProvider = {
      ...hosts,
      lease: async () => {
        // The run's lease and the first repeat's lease again find no capacity; the retry's finds some.
        if (++leases <= 2) throw new HostTroubleError('capacity', 'ec2: no capacity for the scheduler in any instance type');
        return { start: hosts.start, info: () => ({ startupSeconds: 0 }), release: async () => undefined };
      },
    };
    const records = await run(leasing, true);
    expect(records.map((r) => [r.repeat, r.status, r.failure?.cause])).toEqual([
      [1, 'failed', 'no capacity for a host'],
      [2, 'ok', undefined],
      [3, 'ok', undefined],
    ]);
    expect(leases).toBe(3);
  });

  it('ends the run at once when a lease fails for anything but capacity', async () => {
    const hosts = flakyProvider(0);
    const leasing: ClusterProvider = { ...hosts, lease: async () => Promise.reject(new Error('ec2: launching the scheduler: InvalidAMIID.NotFound')) };
    await expect(run(leasing, true)).rejects.toThrow('InvalidAMIID.NotFound');
  });

  it('blames a host lost under a failing repeat, not the workload, and retries it', async () => {
    const records = await run(flakyProvider(0, 1, { lostHosts: 1 }), true);
    expect(records.map((r) => [r.repeat, r.status, r.failure?.cause])).toEqual([
      [1, 'failed', 'a host was lost or reclaimed'],
      [2, 'failed', 'the workload failed'],
      [3, 'failed', 'the workload failed'],
    ]);
    expect(records[0]!.disturbance).toBe('worker host i-0 left running (terminated)');
  });

  it('a workload that raises is a code failure, never retried', async () => {
    const records = await run(flakyProvider(0, 1), true);
    expect(records.map((r) => [r.status, r.failure?.class])).toEqual([
      ['failed', 'code'],
      ['failed', 'code'],
    ]);
  });
});
