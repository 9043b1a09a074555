import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { leftoverClusterProcesses } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

const tinySuite = path.join(repoRoot, 'test/fixtures/suites/tiny');
let dir: string;
let db: string;

function writeConfig(name: string, config: Record<string, unknown>): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ suites: [tinySuite], repeats: 1, cluster: { workers: 2, memoryPerWorker: '1GiB' }, workdir: 'work', ...config }));
  return file;
}

function counts(): { runs: number; repeats: number; results: number } {
  const raw = new Database(db, { readonly: true });
  const count = (table: string) => (raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const result = { runs: count('runs'), repeats: count('repeats'), results: count('results') };
  raw.close();
  return result;
}

function oneLineError(stderr: string): string {
  const lines = stderr.trim().split('\n').filter((l) => l.startsWith('nightbench:'));
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0]!;
}

describe('bad input on the CLI', () => {
  beforeAll(async () => {
    dir = tempDir('nb-bad-');
    db = path.join(dir, 'history.sqlite');
    // A good night first: everything below must leave it intact.
    const good = await runCli(['run', '--config', writeConfig('good.json', { workloads: ['quick_sum'] }), '--db', db], { cwd: dir });
    expect(good.code, good.stderr).toBe(0);
  });

  it('a malformed config: one line naming the file, exit 2', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{ "repeats": 3, }');
    const result = await runCli(['nightly', '--config', file, '--db', db], { cwd: dir });
    expect(result.code).toBe(2);
    expect(oneLineError(result.stderr)).toMatch(/broken\.json: not valid JSON/);
  });

  it('an invalid value: names the key and what is allowed, exit 2', async () => {
    const result = await runCli(['nightly', '--config', writeConfig('bad-value.json', { repeats: 0 }), '--db', db], { cwd: dir });
    expect(result.code).toBe(2);
    expect(oneLineError(result.stderr)).toMatch(/repeats: .*>=1/);
  });

  it('an unknown workload: lists the known ones, exit 2, before any cluster starts or the --db file exists', async () => {
    const fresh = path.join(dir, 'never-created.sqlite');
    for (const command of ['run', 'nightly']) {
      const result = await runCli([command, '--config', writeConfig('unknown.json', {}), '--db', fresh, '--workload', 'no_such_thing'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(oneLineError(result.stderr)).toMatch(/unknown workload "no_such_thing" in suite tiny; known: target_work, quick_sum, fails/);
      expect(result.stderr).not.toMatch(/starting a .* cluster/);
      expect(existsSync(fresh)).toBe(false);
    }
  });

  it.each([
    ['a night that is no date', ['--night', '2026-02-30'], /--night must be a calendar date such as 2026-12-01, got "2026-02-30"/],
    ['a night in the future', ['--night', '2099-01-01'], /--night 2099-01-01 is in the future: the latest night allowed is tomorrow, \d{4}-\d{2}-\d{2} \(UTC\)/],
    ['a revision that is an option', ['--commit=--upload-pack=touch injected'], /--commit must be a commit, tag or branch, got "--upload-pack=touch injected"/],
  ])('%s: one line, exit 2, nothing created or recorded', async (_, flags, message) => {
    const before = counts();
    const fresh = path.join(dir, 'never-created.sqlite');
    for (const args of [['nightly', ...flags, '--db', fresh], ['nightly', ...flags, '--db', db]]) {
      const result = await runCli([...args, '--config', writeConfig('night.json', { workloads: ['quick_sum'] })], { cwd: dir });
      expect(result.code).toBe(2);
      expect(oneLineError(result.stderr)).toMatch(message);
    }
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(path.join(dir, 'injected'))).toBe(false);
    expect(counts()).toEqual(before);
  });

  it.each([['--good=--upload-pack=touch injected'], ['--good=dask=-x']])('bisect refuses %s before it opens the history', async (good) => {
    const fresh = path.join(dir, 'never-created.sqlite');
    const result = await runCli(['bisect', good, '--bad', 'abc', '--workload', 'quick_sum', '--config', writeConfig('bisect.json', {}), '--db', fresh], { cwd: dir });
    expect(result.code).toBe(2);
    expect(oneLineError(result.stderr)).toMatch(/--good must be a commit, tag or branch, got ".*" \(a revision cannot start with "-"\)/);
    expect(existsSync(fresh)).toBe(false);
  });

  it.each(['detect', 'issues', 'summary'])('%s refuses a night that is no date', async (command) => {
    const result = await runCli([command, '--config', writeConfig('read.json', {}), '--db', db, '--night', '2026-13-01'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(oneLineError(result.stderr)).toMatch(/--night must be a calendar date/);
  });

  it('a workload that raises: failed repeats with the error tail, exit 1, nothing else lost', async () => {
    const before = counts();
    const result = await runCli(['run', '--config', writeConfig('fails.json', { workloads: ['fails'] }), '--db', db, '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).runs[0]).toMatchObject({ status: 'failed', repeats: { failed: 1 } });
    const raw = new Database(db, { readonly: true });
    const repeat = raw.prepare("SELECT status, error FROM repeats WHERE workload = 'fails'").get() as { status: string; error: string };
    raw.close();
    expect(repeat.status).toBe('failed');
    expect(repeat.error).toMatch(/RuntimeError: planted failure/);
    expect(counts()).toEqual({ runs: before.runs + 1, repeats: before.repeats + 1, results: before.results });
  });

  it('a workload that hangs past its limit: a timeout row, and the cluster is gone', async () => {
    const started = Date.now();
    const result = await runCli(['run', '--config', writeConfig('hangs.json', { workloads: ['hangs'], timeLimitSeconds: 4 }), '--db', db], { cwd: dir });
    expect(result.code).toBe(1);
    // The timeout row proves the limit; the bound only tells a stopped workload from one left to sleep on, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(180_000);
    const raw = new Database(db, { readonly: true });
    expect(raw.prepare("SELECT status, error FROM repeats WHERE workload = 'hangs'").get()).toMatchObject({ status: 'timeout', error: expect.stringMatching(/exceeded the time limit of 4s/) });
    raw.close();
    expect(leftoverClusterProcesses(dir)).toEqual([]);
  });

  it('Ctrl-C during a repeat: exit 130, the run recorded as incomplete, every cluster process stopped', async () => {
    let sent = false;
    const result = await runCli(['run', '--config', writeConfig('interrupt.json', { workloads: ['hangs'], timeLimitSeconds: 120 }), '--db', db], {
      cwd: dir,
      onStderr: (child, stderr) => {
        if (sent || !/hangs: starting a/.test(stderr)) return;
        sent = true;
        // Past start-up and ready, the workload is running: interrupt it there.
        setTimeout(() => child.kill('SIGINT'), 12_000);
      },
    });
    expect(result.code, result.stderr).toBe(130);
    const raw = new Database(db, { readonly: true });
    const run = raw.prepare("SELECT r.status, p.status AS repeat FROM runs r JOIN repeats p ON p.run_id = r.id WHERE p.workload = 'hangs' ORDER BY r.started_at DESC").get();
    raw.close();
    expect(run).toEqual({ status: 'incomplete', repeat: 'failed' });
    expect(leftoverClusterProcesses(dir)).toEqual([]);
  });

  it('a worker that dies during a repeat: recorded as disturbed, with what happened', async () => {
    const result = await runCli(['run', '--config', writeConfig('dies.json', { workloads: ['loses_worker'] }), '--db', db], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const raw = new Database(db, { readonly: true });
    const repeat = raw.prepare("SELECT status, disturbance FROM repeats WHERE workload = 'loses_worker'").get() as { status: string; disturbance: string };
    raw.close();
    expect(repeat.status).toBe('disturbed');
    expect(repeat.disturbance).toMatch(/worker-\d: process \d+ ended during the repeat/);
  });

  it('a database locked by another writer: one line, exit 4, no cluster started, nothing lost', async () => {
    const before = counts();
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await runCli(['run', '--config', writeConfig('locked.json', { workloads: ['quick_sum'], history: { path: db, busyTimeoutMs: 200 } })], { cwd: dir });
      expect(result.code).toBe(4);
      expect(oneLineError(result.stderr)).toMatch(/is locked by another writer/);
      expect(result.stderr).not.toMatch(/starting a .* cluster/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(counts()).toEqual(before);
  });

  it('a corrupt database: one line, exit 4', async () => {
    const corrupt = path.join(dir, 'corrupt.sqlite');
    writeFileSync(corrupt, 'not a database '.repeat(40));
    const result = await runCli(['run', '--config', writeConfig('corrupt.json', {}), '--db', corrupt], { cwd: dir });
    expect(result.code).toBe(4);
    expect(oneLineError(result.stderr)).toMatch(/corrupt or not a SQLite database/);
  });
});
