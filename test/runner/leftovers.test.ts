import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { Log } from '../../src/log.js';
import { processRecorder, recoverAbandoned } from '../../src/runner/leftovers.js';
import { newRun } from '../history/fixtures.js';
import { processesInGroups, secondsUntil } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A log that keeps its warnings. */
function recordingLog(): Log & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => {}, debug: () => {}, warn: (message) => warnings.push(message) };
}

/** A process group like a cluster process: a shell leading it, with a child. */
function group(): ChildProcess {
  const child = spawn('sh', ['-c', 'sleep 600 & sleep 600'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

describe('the next start cleans up after a runner that died', () => {
  let store: HistoryStore;
  let file: string;
  /** The recorded processes as the table holds them (read beside the store, as a user would). */
  const fates = () => {
    const raw = new Database(file, { readonly: true });
    try {
      return raw.prepare('SELECT name, fate FROM run_processes ORDER BY name').all();
    } finally {
      raw.close();
    }
  };
  const started: ChildProcess[] = [];
  // A pid that existed a moment ago and is gone: the dead runner's.
  const deadRunner = spawnSync('true').pid;

  beforeEach(() => {
    file = path.join(tempDir('nb-leftovers-'), 'history.sqlite');
    store = openHistory(file);
  });
  afterEach(() => {
    store.close();
    for (const child of started) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already ended, as it should be.
      }
    }
  });

  it('ends the processes still alive of a dead run, names them, and settles what it found', async () => {
    const log = recordingLog();
    const run = newRun({ pid: deadRunner });
    store.runs.beginRun(run);
    const scheduler = group();
    const gone = group();
    started.push(scheduler, gone);
    const record = processRecorder(store.processes, run.id, log);
    record({ name: 'scheduler', pid: scheduler.pid! });
    record({ name: 'worker-1', pid: gone.pid! });
    process.kill(-gone.pid!, 'SIGKILL');
    await new Promise((resolve) => gone.once('exit', resolve));

    const ended = await recoverAbandoned(store, log, { graceMs: 10_000 });
    expect(ended.map((p) => p.name)).toEqual(['scheduler']);
    expect(log.warnings).toEqual([
      `run ${run.id} had stopped before it finished; marked incomplete`,
      `ending 1 process left behind by run ${run.id.slice(0, 8)} whose runner died: scheduler (pid ${scheduler.pid})`,
    ]);
    expect(await secondsUntil(() => processesInGroups([scheduler.pid!]).length === 0, 10_000)).toBeDefined();
    expect(fates()).toEqual([{ name: 'scheduler', fate: 'ended' }, { name: 'worker-1', fate: 'gone' }]);

    const again = recordingLog();
    expect(await recoverAbandoned(store, again)).toEqual([]);
    expect(again.warnings).toEqual([]);
  });

  it('never signals a process that only has the recorded pid: its start time differs', async () => {
    const log = recordingLog();
    const run = newRun({ pid: deadRunner });
    store.runs.beginRun(run);
    const stranger = group();
    started.push(stranger);
    // As if the recorded worker had ended and the kernel had given its pid to this process.
    processRecorder({ recordProcess: (p) => store.processes.recordProcess({ ...p, startTicks: p.startTicks - 1 }) }, run.id, log)({ name: 'worker-1', pid: stranger.pid! });
    expect(await recoverAbandoned(store, log)).toEqual([]);
    expect(processesInGroups([stranger.pid!])).toContain(stranger.pid);
    expect(fates()).toEqual([{ name: 'worker-1', fate: 'gone' }]);
  });

  it('leaves alone the processes of a run whose runner is alive, and those its runner stopped', async () => {
    const log = recordingLog();
    const live = newRun();
    store.runs.beginRun(live);
    const mine = group();
    started.push(mine);
    processRecorder(store.processes, live.id, log)({ name: 'scheduler', pid: mine.pid! });
    expect(await recoverAbandoned(store, log)).toEqual([]);
    expect(processesInGroups([mine.pid!])).toContain(mine.pid);
    store.processes.settleRunProcesses(live.id, 'stopped');
    store.runs.finishRun(live.id, { status: 'complete', finishedAt: new Date().toISOString() });
    expect(await recoverAbandoned(store, log)).toEqual([]);
    expect(processesInGroups([mine.pid!])).toContain(mine.pid);
    expect(log.warnings).toEqual([]);
  });
});
