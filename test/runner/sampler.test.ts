import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { summarizeUsage } from '../../src/runner/sample-summary.js';
import { Sampler } from '../../src/runner/sampler.js';
import { processTree } from '../../src/runner/proc.js';

// A parent that holds ~64 MB and burns CPU, with a child that sleeps until it is killed.
const script = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
globalThis.hold = Buffer.alloc(64 * 1024 * 1024, 1);
setInterval(() => { const t = Date.now() + 50; while (Date.now() < t); }, 60);
process.stdout.write(String(child.pid) + '\\n');
`;

/** CPU seconds a process has used, from /proc (fields 14 and 15 are in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('Sampler', () => {
  it('samples a whole process tree from /proc and notices a process that ends', async () => {
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    await sleep(200);
    expect(processTree(parent.pid!)).toEqual(expect.arrayContaining([parent.pid, childPid]));
    const sampler = new Sampler(() => [{ name: 'worker-1', host: 'localhost', pid: parent.pid! }], 50);
    sampler.start();
    // Wait for the CPU the test asserts, not for a fixed time: on a loaded machine the busy loop
    // gets only a share of a core.
    const started = cpuSecondsOf(parent.pid!);
    const deadline = Date.now() + 30_000;
    await sleep(600);
    while (cpuSecondsOf(parent.pid!) - started < 0.3 && Date.now() < deadline) await sleep(100);
    process.kill(childPid, 'SIGKILL');
    await sleep(300);
    const result = sampler.stop();
    parent.kill('SIGKILL');

    expect(result.ticks).toBeGreaterThan(8);
    const usage = summarizeUsage(result.processes);
    expect(usage.peakMemory).toBeGreaterThan(64 * 1024 * 1024);
    expect(usage.averageMemory).toBeLessThanOrEqual(usage.peakMemory);
    expect(usage.cpuSeconds).toBeGreaterThan(0.2);
    expect(result.disappeared).toEqual([`worker-1: process ${childPid} ended during the repeat`]);
  });
});
