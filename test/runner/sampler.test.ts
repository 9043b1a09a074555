import { spawn } from 'node:child_process';
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

describe('Sampler', () => {
  it('samples a whole process tree from /proc and notices a process that ends', async () => {
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    await sleep(200);
    expect(processTree(parent.pid!)).toEqual(expect.arrayContaining([parent.pid, childPid]));
    const sampler = new Sampler(() => [{ name: 'worker-1', host: 'localhost', pid: parent.pid! }], 50);
    sampler.start();
    await sleep(600);
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
