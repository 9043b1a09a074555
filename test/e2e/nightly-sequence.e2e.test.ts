/**
 * The nightly workflow's job sequence, run locally step by step with the same commands the
 * workflow runs: plan the shards, two shards into two databases (at once, as a matrix does),
 * then merge, detect, issues (against the fake GitHub), save the history to a branch of a
 * throw-away bare repository, summary and site. The next night fetches that history back, and
 * its save loses a push race to another writer: it retries, and neither night is lost.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchRepo } from '../git/scratch-repo.js';
import { repoRoot, runCli, type CliResult } from '../helpers/cli.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { silentLog } from '../../src/log.js';
import { gitBranchBackend } from '../../src/history-sync/git-branch.js';
import { createBareRepo, git, loseNextPushRace, writeNight } from '../history-sync/helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const grace = { name: 'Grace Hopper', email: 'grace@example.org' };
const tinytarget = (delay: number) => `import time\n\nVERSION = "${delay}"\n\ndef work(i):\n    time.sleep(${delay})\n    return i + 1\n`;
const branch = 'nightbench-history';

const dir = tempDir('nb-sequence-');
const upstream = createScratchRepo('nb-sequence-upstream-');
const github = new FakeGitHub();
afterAll(async () => {
  await github.stop();
});

let bare = '';
let config = '';

/** A fresh machine for one job of one night: an empty folder with the repository's config. */
function job(date: string, name: string): string {
  const cwd = path.join(dir, date, name);
  mkdirSync(cwd, { recursive: true });
  writeFileSync(path.join(cwd, 'nightbench.config.json'), config);
  return cwd;
}

/** One workflow step: the real CLI in the job's folder; a failure shows its stderr. */
async function step(cwd: string, args: string[], options: { env?: Record<string, string>; allow?: number[] } = {}): Promise<CliResult> {
  const began = Date.now();
  const result = await runCli(args, { cwd, env: options.env });
  process.stderr.write(`  ${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s  nightbench ${args.slice(0, 2).join(' ')} (${path.relative(dir, cwd)})\n`);
  expect(options.allow ?? [0], `nightbench ${args.join(' ')}\n${result.stderr}`).toContain(result.code);
  return result;
}

const store = (branchName = branch) => ['--store', 'git', '--repo', bare, '--branch', branchName];

/** The jobs of one night, in the workflow's order, each on its own "machine"; returns what they printed. */
async function night(date: string) {
  // plan job: fetch the history read-only, plan two shards by its durations.
  const planJob = job(date, 'plan');
  await step(planJob, ['history', 'fetch', ...store(), '--to', 'history.sqlite']);
  const plan = JSON.parse((await step(planJob, ['shard', 'plan', '--db', 'history.sqlite', '--shards', '2', '--out', 'shard-plan.json', '--json', '-q'])).stdout);
  // shard jobs, at once as a matrix runs them, each into its own database; the plan is their artifact.
  const entries = plan.matrix.include as { shard: string; index: number }[];
  await Promise.all(
    entries.map((entry) => {
      const shardJob = job(date, `shard-${entry.index}`);
      copyFileSync(path.join(planJob, 'shard-plan.json'), path.join(shardJob, 'shard-plan.json'));
      return step(shardJob, ['nightly', '--no-detect', '--db', 'shard.sqlite', '--night', date, '--shard', entry.shard, '--shard-plan', 'shard-plan.json', '-q']);
    }),
  );
  // history job: the shards' databases arrive as artifacts.
  const historyJob = job(date, 'history');
  const shardFiles = entries.map((entry) => path.join(dir, date, `shard-${entry.index}`, 'shard.sqlite'));
  await step(historyJob, ['history', 'fetch', ...store(), '--to', 'history.sqlite']);
  await step(historyJob, ['db', 'merge', '--db', 'history.sqlite', ...shardFiles]);
  const detect = await step(historyJob, ['detect', '--db', 'history.sqlite', '--night', date, '--json'], { allow: [0, 1] });
  await step(historyJob, ['issues', '--db', 'history.sqlite', '--night', date], { env: { GITHUB_TOKEN: 'fake-token' } });
  const save = JSON.parse((await step(historyJob, ['history', 'save', ...store(), '--from', 'history.sqlite', '--retry-delay', '50', '--json'])).stdout);
  const summaryFile = path.join(historyJob, 'step-summary.md');
  writeFileSync(summaryFile, '');
  await step(historyJob, ['summary', '--db', 'history.sqlite', '--night', date, '--expect-shards', '2'], { env: { GITHUB_STEP_SUMMARY: summaryFile } });
  await step(historyJob, ['report', '--db', 'history.sqlite', '--out', 'site', '-q']);
  return { plan, detect: JSON.parse(detect.stdout), save, summary: readFileSync(summaryFile, 'utf8'), site: path.join(historyJob, 'site') };
}

/**
 * The week before the first real night, as copies of its runs, values jittered by a few percent,
 * repeats tidy and target_work twice as fast: a baseline to judge night 2 against, whatever the load of the
 * machine running this test does to the real nights' times.
 */
function backfill(file: string, from: string, nights: string[]): void {
  const db = new Database(file);
  const runs = db.prepare('SELECT * FROM runs WHERE night = ?').all(from) as Record<string, unknown>[];
  const insert = (table: string, row: Record<string, unknown>) =>
    db.prepare(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`).run(...Object.values(row));
  const medianOf = (runId: string, workload: string, metric: string): number => {
    const values = (db.prepare('SELECT value FROM results WHERE run_id = ? AND workload = ? AND metric = ? ORDER BY value').all(runId, workload, metric) as { value: number }[]).map((r) => r.value);
    const middle = Math.floor(values.length / 2);
    return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  };
  db.transaction(() => {
    for (const [n, night] of nights.entries()) {
      const jitter = 1 + ((n % 3) - 1) * 0.02;
      for (const run of runs) {
        const id = randomUUID();
        insert('runs', { ...run, id, night });
        for (const row of db.prepare('SELECT * FROM run_commits WHERE run_id = ?').all(run.id) as Record<string, unknown>[]) insert('run_commits', { ...row, run_id: id });
        // A repeat's values are in its row (migration 026): the copy's are set there.
        for (const row of db.prepare('SELECT * FROM repeats WHERE run_id = ?').all(run.id) as { workload: string; repeat: number; metric_values: string }[]) {
          const values = (JSON.parse(row.metric_values) as [string, number, string][]).map(([metric, , unit]) => {
            const faster = row.workload === 'target_work' && metric === 'wall_time' ? 0.5 : 1;
            // Each repeat at the night's median, 1% apart: night 1's repeat spread is whatever the
            // load of this machine made it (47% once under CI), and copied into every night it
            // would rightly hold the planted slowdown "within noise".
            const median = medianOf(run.id as string, row.workload, metric);
            return [metric, median * jitter * faster * (1 + ((row.repeat % 3) - 1) * 0.01), unit];
          });
          insert('repeats', { ...row, run_id: id, metric_values: JSON.stringify(values) });
        }
      }
    }
  })();
  db.close();
}

describe('the nightly workflow, step by step', () => {
  it('shards, merges, detects, files issues, saves the history to a branch and fetches it back, surviving a push race', async () => {
    const started = Date.now();
    await github.start();
    github.addRepository('acme/tiny');
    bare = createBareRepo(dir);
    upstream.commit({ 'tinytarget/__init__.py': tinytarget(0) }, 'Add tinytarget', ada, '2026-11-27T12:00:00Z');
    config = JSON.stringify({
        target: { kind: 'git', name: 'tiny', repositories: [{ name: 'tinytarget', url: upstream.dir, branch: 'main' }], setup: { env: { PYTHONPATH: '{checkout:tinytarget}' } } },
        suites: [path.join(repoRoot, 'test/fixtures/suites/tiny')],
        workloads: ['target_work', 'quick_sum'],
        repeats: 3,
        cluster: { workers: 2, memoryPerWorker: '1GiB' },
        // A week of nightly history gives 3 repeats a night few distinct rank orders: 5% is reachable.
        detection: { alpha: 0.05 },
        github: { repository: 'acme/tiny', apiUrl: github.baseUrl, waitUnitMs: 0, writeSpacingMs: 0, notifySpacingMs: 0 },
    });

    // Night 1: nothing stored yet; two shards of one workload each.
    const one = await night('2026-12-01');
    expect(one.plan.matrix.include.map((e: { shard: string }) => e.shard)).toEqual(['1/2', '2/2']);
    expect(one.save).toMatchObject({ changed: true, attempts: 1 });
    expect(one.summary).toContain('## nightbench: night 2026-12-01');
    expect(one.summary).not.toContain('shard missing');
    expect(existsSync(path.join(one.site, 'index.html'))).toBe(true);

    // The week before night 1, so that night 2 has a baseline; stored as any writer would.
    const setup = job('setup', 'backfill');
    const stored = gitBranchBackend({ repo: bare, branch }, { log: silentLog });
    await stored.fetch(path.join(setup, 'history.sqlite'));
    backfill(path.join(setup, 'history.sqlite'), '2026-12-01', ['2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30']);
    await stored.save(path.join(setup, 'history.sqlite'));

    // Night 2: target_work got slower upstream; and while this night merges, another writer
    // saves its own run to the branch first, so our first push is rejected.
    upstream.commit({ 'tinytarget/__init__.py': tinytarget(2) }, 'Make work thorough (#7)', grace, '2026-12-01T12:00:00Z');
    writeNight(path.join(setup, 'other.sqlite'), '2026-12-02');
    const otherWriter = gitBranchBackend({ repo: bare, branch: 'other-writer' }, { log: silentLog });
    await otherWriter.save(path.join(setup, 'history.sqlite'));
    await otherWriter.save(path.join(setup, 'other.sqlite'));
    loseNextPushRace(bare, branch, 'refs/heads/other-writer');
    const two = await night('2026-12-02');

    expect(two.plan.plan.shards.flatMap((s: { workloads: { known: boolean }[] }) => s.workloads.map((w) => w.known))).toEqual([true, true]);
    const verdicts = two.detect.verdicts as { kind: string; reason: string; identity: { workload: string; metric: string } }[];
    const targetWall = verdicts.find((v) => v.identity.workload === 'target_work' && v.identity.metric === 'wall_time');
    expect(targetWall?.kind, JSON.stringify(targetWall)).toBe('regression');
    expect(github.issues('acme/tiny').length).toBeGreaterThan(0);
    expect(two.save.attempts).toBe(2);
    expect(two.summary).toMatch(/🔴 regression \| tiny\/target_work \| wall_time/);

    // The next night's fetch sees every night: ours, the backfilled week and the other writer's run.
    const next = job('2026-12-03', 'history');
    await stored.fetch(path.join(next, 'history.sqlite'));
    const db = new Database(path.join(next, 'history.sqlite'), { readonly: true });
    const nights = db.prepare('SELECT suite, night, count(*) AS runs FROM runs GROUP BY suite, night ORDER BY suite, night').all();
    db.close();
    expect(nights).toEqual([
      { suite: 'dask', night: '2026-12-02', runs: 1 },
      ...['2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02'].map((night) => ({ suite: 'tiny', night, runs: 2 })),
    ]);
    expect(git(bare, 'merge-base', '--is-ancestor', 'other-writer', branch)).toBe('');
    process.stdout.write(`nightly sequence, two nights of two shards each, on this machine: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
});
