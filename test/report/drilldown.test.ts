import { describe, expect, it } from 'vitest';
import { buildDrilldown, timeline } from '../../src/report/drilldown.js';

const seconds = Array.from({ length: 1000 }, (_, i) => i * 0.25);

describe('timeline', () => {
  it('cuts a long sampling to at most the asked points, keeping the memory peak and the CPU rate', () => {
    const rss = seconds.map((_, i) => (i === 517 ? 900 * 2 ** 20 : 100 * 2 ** 20));
    const cpu = seconds.map((t) => 0.5 * t);
    const out = timeline({ process: 'worker-1', host: 'h', t: seconds, rss, cpu }, 300);
    expect(out.t.length).toBeLessThanOrEqual(300);
    expect(Math.max(...out.rssMiB)).toBe(900);
    expect(out.cpuCores.slice(1).every((c) => c === 0.5)).toBe(true);
    expect(out.t[0]).toBe(0);
  });

  it('keeps a short sampling as it is; the first CPU point is unknown', () => {
    const out = timeline({ process: 'scheduler', host: 'h', t: [0, 1, 2], rss: [2 ** 20, 2 * 2 ** 20, 3 * 2 ** 20], cpu: [0, 0.2, 0.6] }, 300);
    expect(out).toEqual({ process: 'scheduler', host: 'h', t: [0, 1, 2], rssMiB: [1, 2, 3], cpuCores: [null, 0.2, 0.4] });
  });
});

describe('buildDrilldown', () => {
  it('orders repeats and processes (worker-10 after worker-2)', () => {
    const run = { id: 'r1', suite: 'dask', night: '2026-02-09', startedAt: '', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB', commits: [] };
    const samples = (process: string) => ({ process, host: 'h', t: [0, 1], rss: [1, 2], cpu: [0, 1] });
    const page = buildDrilldown(run, 'shuffle', [
      { repeat: 2, status: 'failed', error: 'boom', metrics: [], samples: [] },
      { repeat: 1, status: 'ok', error: null, metrics: [{ metric: 'wall_time', value: 1.234567, unit: 's' }], samples: [samples('worker-10'), samples('worker-2'), samples('scheduler')] },
    ], []);
    expect(page.repeats.map((r) => r.repeat)).toEqual([1, 2]);
    expect(page.repeats[0]!.processes.map((p) => p.process)).toEqual(['scheduler', 'worker-2', 'worker-10']);
    expect(page.repeats[0]!.metrics[0]!.value).toBe(1.2346);
    expect(page.repeats[1]).toMatchObject({ status: 'failed', error: 'boom' });
  });
});

describe('the drill-down of a run that recorded its machine', () => {
  const run = { id: 'r1', suite: 'dask', night: '2026-02-09', startedAt: '', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB', commits: [] };
  const machine = { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, memory: 16 * 2 ** 30, kernel: '6.5.0-1025-azure', runnerImage: 'ubuntu22', runnerImageVersion: '20240922.1.0' };

  it('names the machine: its class, the runner image and the kernel; a run recorded before machines were has no such line', () => {
    const page = buildDrilldown({ ...run, machine, machineClass: 'AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB' }, 'shuffle', [], []);
    expect(page.machine).toBe('AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB, runner image ubuntu22 20240922.1.0, kernel 6.5.0-1025-azure');
    expect(buildDrilldown(run, 'shuffle', [], []).machine).toBeUndefined();
  });
});
