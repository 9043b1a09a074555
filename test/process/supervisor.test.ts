import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManagedProcess } from '../../src/process/processes.js';
import { processTree } from '../../src/runner/proc.js';
import { processesInGroups, secondsUntil, supervisorsOf } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Runs a helper script of this folder under tsx with `args`; resolves with its child and first line of output. */
async function helper(script: string, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  return { child, line };
}

/** Starts hold-processes.ts, its logs in a temporary folder of the test; resolves with its child and the pids of the groups it started. */
async function holder() {
  const { child, line } = await helper('./hold-processes.ts', [tempDir('nb-hold-')]);
  const pids = JSON.parse(line) as { server: number; client: number };
  return { child, groups: [pids.server, pids.client] };
}

describe('process groups and their supervisors', () => {
  it('a SIGKILLed runner leaves no process of its groups behind: each supervisor ends its group within seconds', async () => {
    const { child, groups } = await holder();
    expect(await secondsUntil(() => supervisorsOf(child.pid!).length === 2, 30_000)).toBeDefined();
    expect(processesInGroups(groups).length).toBeGreaterThanOrEqual(4);
    child.kill('SIGKILL');
    // TERM at once, KILL after 3 s at most: 30 s leaves room for a loaded machine.
    const seconds = await secondsUntil(() => processesInGroups(groups).length === 0, 30_000);
    expect(seconds, `still alive: ${processesInGroups(groups).join(', ')}`).toBeDefined();
    process.stderr.write(`supervisor: the groups of a SIGKILLed holder were gone ${seconds!.toFixed(1)} s later\n`);
  });

  it('without its supervisors, the groups outlive the runner (what the next start cleans up)', async () => {
    const { child, groups } = await holder();
    expect(await secondsUntil(() => supervisorsOf(child.pid!).length === 2, 30_000)).toBeDefined();
    for (const pid of supervisorsOf(child.pid!)) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
    // Longer than a supervisor's whole TERM-then-KILL: nothing ends them now.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(processesInGroups(groups).length).toBeGreaterThanOrEqual(4);
    for (const pgid of groups) process.kill(-pgid, 'SIGKILL');
  });

  it('a runner that dies between spawning a command and supervising it leaves nothing running: the command never starts', async () => {
    const marker = path.join(tempDir('nb-gate-'), 'started');
    const { line } = await helper('./die-at-gate.ts', [marker]);
    const pgid = Number(line);
    expect(await secondsUntil(() => processesInGroups([pgid]).length === 0, 30_000), `still alive: ${processesInGroups([pgid]).join(', ')}`).toBeDefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('a normal stop releases the supervisor, which is no part of the sampled process tree', async () => {
    const managed = new ManagedProcess('server', ['sh', '-c', 'sleep 600 & sleep 600'], { env: {}, logDir: tempDir('nb-sup-') });
    expect(await secondsUntil(() => supervisorsOf(process.pid).length > 0, 30_000)).toBeDefined();
    const [supervisor] = supervisorsOf(process.pid).filter((pid) => !processTree(managed.pid).includes(pid));
    expect(supervisor).toBeDefined();
    expect(processTree(managed.pid)).not.toContain(supervisor);
    await managed.stop();
    expect(managed.exit?.signal).toBe('SIGTERM');
    expect(await secondsUntil(() => !supervisorsOf(process.pid).includes(supervisor!), 30_000)).toBeDefined();
    // The group was SIGKILLed as the stop returned; on a busy machine a member can take a moment
    // to die (a CI run once saw one still listed), so the check waits as the others do.
    expect(await secondsUntil(() => processesInGroups([managed.pid]).length === 0, 30_000), `still alive: ${processesInGroups([managed.pid]).join(', ')}`).toBeDefined();
  });
});
