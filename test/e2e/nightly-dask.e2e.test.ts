import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineClass } from '../../src/detect/machine-class.js';
import { readMachineFacts } from '../../src/runner/machine.js';
import { runCli } from '../helpers/cli.js';
import { leftoverClusterProcesses } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

const workloads = ['array_reduction', 'groupby_aggregation', 'shuffle'];

describe('nightbench nightly on a real local Dask cluster', () => {
  it('records every workload x repeat x metric with plausible values, and leaves no Dask process behind', async () => {
    const dir = tempDir('nb-nightly-');
    const db = path.join(dir, 'history.sqlite');
    const result = await runCli(
      ['nightly', '--no-detect', '--db', db, '--workers', '2', '--memory', '1GiB', '--repeats', '2', '--scale', '0.05', '--workload', workloads.join(','), '--json'],
      // Six repeats on a fresh cluster: under a minute alone, over two on a loaded machine.
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).runs).toEqual([expect.objectContaining({ status: 'complete', repeats: { ok: 6, failed: 0, timeout: 0, disturbed: 0 } })]);
    // Progress on stderr names the workload and the repeat.
    expect(result.stderr).toMatch(/\[dask\] 2\/3 groupby_aggregation repeat 2\/2: ok in \d+\.\ds/);

    const history = new Database(db, { readonly: true });
    const runs = history.prepare('SELECT * FROM runs').all() as Record<string, unknown>[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: 'nightly', suite: 'dask', status: 'complete', provider: 'local', cluster_shape: 'local:2x1:1GiB', workers: 2, scale: 0.05 });
    expect(JSON.parse(runs[0]!.target as string)).toMatchObject({ kind: 'installed', versions: { distributed: expect.stringMatching(/^2022\.12\.1/) } });
    // What ran it: this machine, and its class.
    expect(JSON.parse(runs[0]!.machine as string)).toEqual(readMachineFacts());
    expect(runs[0]!.machine_class).toBe(machineClass(readMachineFacts()));

    const expectedMetrics = ['wall_time', 'cpu_time', 'peak_memory', 'average_memory', 'transfer_bytes', 'spilled_bytes', 'managed_memory_peak', 'unmanaged_memory_peak', 'tasks', 'compute_seconds', 'transfer_seconds', 'disk_seconds', 'serialization_seconds'];
    const value = (workload: string, repeat: number, metric: string) =>
      (history.prepare('SELECT value FROM results WHERE workload = ? AND repeat = ? AND metric = ?').get(workload, repeat, metric) as { value: number } | undefined)?.value;
    for (const workload of workloads) {
      for (const repeat of [1, 2]) {
        for (const metric of expectedMetrics) expect(value(workload, repeat, metric), `${workload} #${repeat} ${metric}`).toBeTypeOf('number');
        expect(value(workload, repeat, 'wall_time')).toBeGreaterThan(0);
        expect(value(workload, repeat, 'cpu_time')).toBeGreaterThan(0);
        expect(value(workload, repeat, 'average_memory')).toBeGreaterThan(0);
        expect(value(workload, repeat, 'peak_memory')).toBeGreaterThanOrEqual(value(workload, repeat, 'average_memory')!);
        expect(value(workload, repeat, 'tasks')).toBeGreaterThan(0);
      }
    }
    // A shuffle moves data between workers.
    expect(value('shuffle', 1, 'transfer_bytes')).toBeGreaterThan(0);
    // Per-process samples for the drill-down: the scheduler and both workers, every repeat.
    expect(history.prepare('SELECT count(*) AS n FROM samples').get()).toEqual({ n: workloads.length * 2 * 3 });
    history.close();
    expect(leftoverClusterProcesses(dir)).toEqual([]);
  });
});
