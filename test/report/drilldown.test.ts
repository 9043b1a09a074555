import { describe, expect, it } from 'vitest';
import { buildDrilldown as drilldownJson } from '../../src/report/drilldown.js';
import type { DrilldownPage } from '../../src/report/types.js';

/** The drill-down's page data, checked to be the JSON `JSON.stringify` writes (the site's files are compared byte for byte). */
function buildDrilldown(...args: Parameters<typeof drilldownJson>): DrilldownPage {
  const json = drilldownJson(...args).toString();
  const page = JSON.parse(json) as DrilldownPage;
  expect(JSON.stringify(page)).toBe(json);
  return page;
}

describe('buildDrilldown', () => {
  it('orders repeats, and holds each repeat\'s timelines as the history stored them', () => {
    const run = { id: 'r1', suite: 'dask', night: '2026-02-09', startedAt: '', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB', commits: [] };
    const timeline = (process: string) => ({ process, host: 'h', t: [0, 1], rssMiB: [1, 2], cpuCores: [null, 1] });
    const page = buildDrilldown(run, 'shuffle', [
      { repeat: 2, status: 'failed', error: 'boom', metrics: [], timelines: Buffer.from('[]') },
      { repeat: 1, status: 'ok', error: null, metrics: [{ metric: 'wall_time', value: 1.234567, unit: 's' }], timelines: Buffer.from(JSON.stringify([timeline('scheduler'), timeline('worker-2'), timeline('worker-10')])) },
    ], []);
    expect(page.repeats.map((r) => r.repeat)).toEqual([1, 2]);
    expect(page.repeats[0]!.metrics[0]!.value).toBe(1.2346);
    expect(page.repeats[0]!.processes[0]).toEqual({ process: 'scheduler', host: 'h', t: [0, 1], rssMiB: [1, 2], cpuCores: [null, 1] });
    expect(page.repeats[1]).toMatchObject({ status: 'failed', error: 'boom', processes: [] });
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
