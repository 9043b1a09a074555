import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import type { TunePlan } from '../../src/tune/plan.js';
import { runCli } from '../helpers/cli.js';
import { writeSyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('nightbench-tune-');
const db = path.join(dir, 'history.sqlite');

describe('nightbench tune', () => {
  beforeAll(() => {
    // Two workloads recorded side by side: one at 1% noise, one at 8% (each its own run a night).
    const store = openHistory(db);
    const metrics = [{ name: 'wall_time', unit: 's' }];
    writeSyntheticHistory(store, { seed: 3, workloads: ['quiet'], metrics, nights: 20, repeats: 3, noise: 0.01 });
    writeSyntheticHistory(store, { seed: 4, workloads: ['noisy'], metrics, nights: 20, repeats: 3, noise: 0.08 });
    store.close();
  });

  it('prints the repeats per workload that catch 10% within 3 nights and what they cost, from a real history', async () => {
    const result = await runCli(['tune', '--db', db, '--json', '--target', '10'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as TunePlan;
    expect(plan).toMatchObject({ night: '2026-01-20', target: 0.1, nights: 3, currentRepeats: 3 });
    const byName = new Map(plan.workloads.map((w) => [w.workload, w]));
    expect(byName.get('quiet')!.repeats).toBe(1);
    expect(byName.get('noisy')!.repeats).toBeGreaterThan(3);
    expect(byName.get('noisy')!.secondsPerRepeat).toBeGreaterThan(0);
    expect(plan.clusterSeconds).toBeGreaterThan(0);

    const text = await runCli(['tune', '--db', db, '--target', '10%', '--nights', '1'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('catches a 10% change on its first night');
    expect(text.stdout).toMatch(/dask\/quiet\s+3 -> \d+/);
    expect(text.stdout).toContain('total cluster time a night:');
  });

  it.each([
    [['--nights', '2'], /--nights/],
    [['--target', 'ten'], /--target must be a percentage/],
    [['--night', '2026-13-45'], /--night must be a calendar date/],
  ])('refuses bad input %j with one line and exit 2', async (args, message) => {
    const result = await runCli(['tune', '--db', db, ...args], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 4 when the history is missing, and documents itself', async () => {
    expect((await runCli(['tune', '--db', path.join(dir, 'none.sqlite')], { cwd: dir })).code).toBe(4);
    const help = await runCli(['tune', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--target <percent>');
    // In the unit the option is typed in: "default: 0.1" read as 0.1%.
    expect(help.stdout).toMatch(/--target <percent>.*\s+\(default: 10%\)/);
    const byDefault = await runCli(['tune', '--db', db, '--json'], { cwd: dir });
    expect(JSON.parse(byDefault.stdout)).toMatchObject({ target: 0.1 });
    expect(help.stdout).toContain('Exit codes');
  });
});
