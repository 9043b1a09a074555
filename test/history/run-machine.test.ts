import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { machineClass } from '../../src/detect/machine-class.js';
import { mergeShardFiles } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import { sqlAll } from '../helpers/sql.js';
import { newRun, okRepeat } from './fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
beforeEach(() => {
  dir = tempDir('nightbench-run-machine-');
});

const epyc = { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, memory: 16 * 2 ** 30, kernel: '6.5.0-1025-azure', runnerImage: 'ubuntu22', runnerImageVersion: '20240922.1.0' };
const xeon = { cpuModel: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz', cores: 4, memory: 16 * 2 ** 30, kernel: '6.5.0-1025-azure' };

/** Records one run with one repeat into `name` and returns its id. */
function recordRun(name: string, overrides: Parameters<typeof newRun>[0]): string {
  const store = openHistory(file(name));
  const run = newRun(overrides);
  store.runs.beginRun(run);
  store.runs.recordRepeat(okRepeat(run.id, 'sum', 1, 10));
  store.runs.finishRun(run.id, { status: 'complete', finishedAt: '2026-12-01T03:00:00.000Z' });
  store.close();
  return run.id;
}

describe('the machine a run ran on', () => {
  it('is stored with the run and its class comes with every value; runs recorded without one have none', () => {
    const withMachine = recordRun('history.sqlite', { machine: epyc, machineClass: machineClass(epyc) });
    const without = recordRun('history.sqlite', { night: '2026-12-02' });
    const store = openHistory(file('history.sqlite'));
    const rows = store.runs.resultRows();
    store.close();
    expect(rows.filter((r) => r.runId === withMachine).map((r) => r.machineClass)).toEqual(['AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB', 'AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB']);
    expect(rows.filter((r) => r.runId === without).every((r) => !('machineClass' in r))).toBe(true);
    expect(sqlAll(file('history.sqlite'), 'SELECT machine FROM runs WHERE id = ?', withMachine)).toEqual([{ machine: JSON.stringify(epyc) }]);
    const pages = openHistory(file('history.sqlite'));
    const runs = pages.nights.reportHistory().runs;
    pages.close();
    expect(runs.map((r) => [r.machine, r.machineClass])).toEqual([[epyc, machineClass(epyc)], [undefined, undefined]]);
  });

  it('is replaced by the instance type a cluster reports when it finishes (EC2 falls back across types)', () => {
    const store = openHistory(file('history.sqlite'));
    const run = newRun({ machine: epyc, machineClass: machineClass(epyc) });
    store.runs.beginRun(run);
    store.runs.recordRepeat(okRepeat(run.id, 'sum', 1, 10));
    store.runs.finishRun(run.id, { status: 'complete', finishedAt: '2026-12-01T03:00:00.000Z', instanceType: 'm6i.large', machineClass: 'instance m6i.large' });
    expect(store.runs.resultRows()[0]!.machineClass).toBe('instance m6i.large');
    store.close();
  });

  it('stays each run\'s own when shards recorded on different machines are merged, also for a run merged before it finished', () => {
    const onEpyc = recordRun('shard-1.sqlite', { machine: epyc, machineClass: machineClass(epyc) });
    const onXeon = recordRun('shard-2.sqlite', { machine: xeon, machineClass: machineClass(xeon), night: '2026-12-02' });
    const shard = openHistory(file('shard-3.sqlite'));
    const running = newRun({ machine: xeon, machineClass: machineClass(xeon), night: '2026-12-03' });
    shard.runs.beginRun(running);
    shard.runs.recordRepeat(okRepeat(running.id, 'sum', 1, 10));
    shard.close();
    mergeShardFiles(file('history.sqlite'), [file('shard-1.sqlite'), file('shard-2.sqlite'), file('shard-3.sqlite')]);
    const later = openHistory(file('shard-3.sqlite'));
    later.runs.finishRun(running.id, { status: 'complete', finishedAt: '2026-12-03T03:00:00.000Z', instanceType: 'c6i.xlarge', machineClass: 'instance c6i.xlarge' });
    later.close();
    mergeShardFiles(file('history.sqlite'), [file('shard-3.sqlite')]);

    const classes = Object.fromEntries((sqlAll(file('history.sqlite'), 'SELECT id, machine_class FROM runs') as { id: string; machine_class: string }[]).map((r) => [r.id, r.machine_class]));
    expect(classes).toEqual({
      [onEpyc]: 'AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB',
      [onXeon]: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz, 4 cores, 16GiB',
      [running.id]: 'instance c6i.xlarge',
    });
  });
});
