import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processIdentity } from '../../src/runner/proc.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { leftoverClusterProcesses, secondsUntil, supervisorsOf } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

interface RecordedProcess {
  runId: string;
  name: string;
  pid: number;
  bootId: string;
  startTicks: number;
  fate: string | null;
}

/** A folder with a small nightly config: the Dask suite's array_reduction at scale 0.05, 3 repeats. */
function nightlyFolder(): { dir: string; config: string; db: string } {
  const dir = tempDir('nb-killed-');
  const config = path.join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ workloads: ['array_reduction'], scale: 0.05, repeats: 3, cluster: { workers: 2, memoryPerWorker: '1GiB' }, workdir: 'work' }));
  return { dir, config, db: path.join(dir, 'history.sqlite') };
}

function recorded(db: string): RecordedProcess[] {
  const raw = new Database(db, { readonly: true });
  try {
    return raw
      .prepare('SELECT run_id AS runId, name, pid, boot_id AS bootId, start_ticks AS startTicks, fate FROM run_processes ORDER BY started_at')
      .all() as RecordedProcess[];
  } finally {
    raw.close();
  }
}

/** Recorded processes that still run: same pid, same boot, same start time. */
function stillRunning(processes: readonly RecordedProcess[]): RecordedProcess[] {
  return processes.filter((p) => {
    const now = processIdentity(p.pid);
    return now !== undefined && now.bootId === p.bootId && now.startTicks === p.startTicks;
  });
}

/**
 * Runs a nightly and, once the workload's first repeat is recorded (its cluster is up and the
 * second repeat under way), calls `kill` on the runner. Resolves when the runner is gone.
 */
async function killedNightly(folder: ReturnType<typeof nightlyFolder>, kill: (child: ChildProcess) => void): Promise<number> {
  let killedAt = 0;
  const result = await runCli(['nightly', '--no-detect', '--config', folder.config, '--db', folder.db], {
    cwd: folder.dir,
    onStderr: (child, stderr) => {
      if (killedAt || !/array_reduction repeat 1\/3: ok/.test(stderr)) return;
      killedAt = Date.now();
      kill(child);
    },
  });
  expect(killedAt, result.stderr).toBeGreaterThan(0);
  expect(result.code, result.stderr).toBeNull();
  return killedAt;
}

/**
 * A start of nightbench after the crash: one repeat of the configured workload. It cleans up first.
 * (An unknown workload no longer does: bad input is refused before the history is opened.)
 */
async function nextStart(folder: ReturnType<typeof nightlyFolder>): Promise<string> {
  const result = await runCli(['run', '--config', folder.config, '--db', folder.db, '--repeats', '1'], { cwd: folder.dir });
  expect(result.code, result.stderr).toBe(0);
  return result.stderr;
}

describe('a runner killed with SIGKILL mid-workload', () => {
  it('leaves no cluster process behind: its supervisors end them within seconds, and the next start finds nothing to end', async () => {
    const folder = nightlyFolder();
    const killedAt = await killedNightly(folder, (child) => child.kill('SIGKILL'));
    const processes = recorded(folder.db);
    expect(new Set(processes.map((p) => p.name))).toEqual(new Set(['scheduler', 'worker-1', 'worker-2', 'client']));
    // A supervisor TERMs at once and KILLs 3 s later; the deadline leaves room for a loaded machine.
    const gone = await secondsUntil(() => stillRunning(processes).length === 0 && leftoverClusterProcesses(folder.dir).length === 0, 60_000);
    expect(gone, `still running: ${stillRunning(processes).map((p) => `${p.name} ${p.pid}`).join(', ')}`).toBeDefined();
    process.stderr.write(`killed runner: every cluster process gone ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the SIGKILL\n`);

    const stderr = await nextStart(folder);
    expect(stderr).toMatch(new RegExp(`run ${processes[0]!.runId} had stopped before it finished; marked incomplete`));
    expect(stderr).not.toMatch(/ending \d+ process/);
    // The killed run's processes only: the next start is a run of its own and records its own.
    expect(recorded(folder.db).filter((p) => p.runId === processes[0]!.runId).map((p) => p.fate)).toEqual(processes.map(() => 'gone'));
  });

  it('with its supervisors killed too, leaves the cluster running until the next start ends it and names what it ended', async () => {
    const folder = nightlyFolder();
    await killedNightly(folder, (child) => {
      // Stopped first, so that no new supervisor starts between the two kills.
      child.kill('SIGSTOP');
      for (const pid of supervisorsOf(child.pid!)) process.kill(pid, 'SIGKILL');
      child.kill('SIGKILL');
    });
    const processes = recorded(folder.db);
    // Longer than a supervisor's TERM-then-KILL: nothing ends the cluster on its own now.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const left = stillRunning(processes);
    expect(left.map((p) => p.name)).toEqual(expect.arrayContaining(['scheduler', 'worker-1', 'worker-2']));

    const stderr = await nextStart(folder);
    const line = /ending (\d+) process(?:es)? left behind by run (\w{8}) whose runner died: (.*)/.exec(stderr);
    expect(line, stderr).not.toBeNull();
    expect(Number(line![1])).toBe(left.length);
    expect(line![2]).toBe(processes[0]!.runId.slice(0, 8));
    for (const p of left) expect(line![3]).toContain(`${p.name} (pid ${p.pid})`);
    expect(await secondsUntil(() => stillRunning(processes).length === 0 && leftoverClusterProcesses(folder.dir).length === 0, 30_000)).toBeDefined();
    const fates = new Map(recorded(folder.db).map((p) => [p.pid, p.fate]));
    for (const p of left) expect(fates.get(p.pid)).toBe('ended');

    // And the start after that finds nothing left.
    expect(await nextStart(folder)).not.toMatch(/ending \d+ process|marked incomplete/);
  });
});

describe('an A/B killed mid-way', () => {
  it('is marked incomplete at the next start; ab list shows it, and ab report analyses what it recorded and says it is partial', async () => {
    const dir = tempDir('nb-ab-killed-');
    mkdirSync(path.join(dir, 'environments'));
    writeFileSync(path.join(dir, 'environments', 'base.json'), JSON.stringify({ name: 'base' }));
    writeFileSync(path.join(dir, 'environments', 'cand.json'), JSON.stringify({ name: 'cand', variables: { NIGHTBENCH_TEST_CANDIDATE: '1' } }));
    const config = path.join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        target: { kind: 'installed' },
        suites: [path.join(repoRoot, 'test/fixtures/suites/tiny')],
        workloads: ['quick_sum'],
        cluster: { workers: 2, memoryPerWorker: '1GiB' },
        workdir: 'work',
        ab: { environments: ['environments/base.json', 'environments/cand.json'], repeats: 2, blockSize: 1, seed: 7 },
      }),
    );
    const db = path.join(dir, 'history.sqlite');
    let killed = false;
    const run = await runCli(['ab', 'run', '--config', config, '--db', db], {
      cwd: dir,
      onStderr: (child, stderr) => {
        // Slots 1-3 recorded (one repeat of A, A' and B): half of the A/B still to run.
        if (killed || !/slot 4\/6:/.test(stderr)) return;
        killed = true;
        child.kill('SIGKILL');
      },
    });
    expect(killed, run.stderr).toBe(true);
    const id = /A\/B ([0-9a-f-]{36}):/.exec(run.stderr)![1]!;
    expect(await secondsUntil(() => leftoverClusterProcesses(dir).length === 0, 60_000), `still running: ${leftoverClusterProcesses(dir).join('; ')}`).toBeDefined();

    const next = await runCli(['run', '--config', config, '--db', db, '--repeats', '1'], { cwd: dir });
    expect(next.stderr).toContain(`A/B ${id} had stopped before it finished; marked incomplete`);

    const list = await runCli(['ab', 'list', '--db', db, '--config', config], { cwd: dir });
    expect(list.stdout).toMatch(new RegExp(`^${id.slice(0, 8)} .* incomplete `, 'm'));
    const report = await runCli(['ab', 'report', id.slice(0, 8), '--db', db, '--config', config], { cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/\(incomplete\)/);
    const partial = /note: partial: this A\/B stopped before it finished; (\d+) of (\d+) scheduled repeats were recorded/.exec(report.stdout);
    expect(partial, report.stdout).not.toBeNull();
    expect([Number(partial![1]), Number(partial![2])]).toEqual([3, 6]);
    expect(report.stdout).toMatch(/^quick_sum\s+wall_time\s/m);
    const page = JSON.parse(readFileSync(path.join(dir, 'reports', 'ab', `${id}-B.json`), 'utf8')) as { summary: string };
    expect(page.summary).toMatch(/status incomplete\..*partial: this A\/B stopped before it finished/);
  });
});
