import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importHistory } from '../../src/interchange/import.js';
import { openHistory } from '../../src/history/open.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { sqlAll, sqlGet } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';

const fixtures = path.join(repoRoot, 'test/fixtures/interchange');

/** An asv results folder of one benchmark over `values.length` daily commits, in asv's version 2 format (asv/results.py). */
function writeAsvHistory(dir: string, values: readonly number[]): void {
  const results = path.join(dir, 'results');
  mkdirSync(path.join(results, 'ci-runner'), { recursive: true });
  writeFileSync(path.join(results, 'benchmarks.json'), JSON.stringify({ 'suite.Orm.time_query': { type: 'time', unit: 'seconds', params: [], param_names: [], version: 'v1' }, version: 2 }));
  writeFileSync(path.join(results, 'ci-runner', 'machine.json'), JSON.stringify({ machine: 'ci-runner', arch: 'x86_64', cpu: 'Intel Xeon', version: 1 }));
  values.forEach((value, day) => {
    const sha = (day + 1).toString(16).padStart(8, '0') + 'a'.repeat(32);
    const date = Date.UTC(2024, 0, 1 + day, 12);
    const data = { commit_hash: sha, env_name: 'virtualenv-py3.12', date, params: {}, python: '3.12', requirements: {}, env_vars: {},
      result_columns: ['result', 'params', 'version', 'started_at', 'duration'], results: { 'suite.Orm.time_query': [[value], [], 'v1', date + 3_600_000, 1.0] }, durations: {}, version: 2 };
    writeFileSync(path.join(results, 'ci-runner', `${sha.slice(0, 8)}-virtualenv-py3.12.json`), JSON.stringify(data));
  });
}

describe('importing an asv results folder into a history', () => {
  it('stores every value with its commit, night, unit, machine and direction, once however often it is imported', () => {
    const file = path.join(tempDir('nb-import-'), 'history.sqlite');
    const store = openHistory(file);
    const first = importHistory(store, path.join(fixtures, 'asv-project'), { suite: 'orm' });
    const again = importHistory(store, path.join(fixtures, 'asv-project'), { suite: 'orm' });
    store.close();

    expect(first).toMatchObject({ format: 'asv', files: 4, runs: 4, newRuns: 4, values: 17, newValues: 17, missing: 2, suites: ['orm'], machines: ['linux-box', 'old-mac'], nights: { first: '2024-03-04', last: '2024-03-05' } });
    expect(again).toMatchObject({ runs: 4, newRuns: 0, values: 17, newValues: 0 });
    expect(sqlGet(file, 'SELECT count(*) AS n FROM results')).toEqual({ n: 17 });
    expect(sqlGet(file, 'SELECT count(*) AS n FROM runs')).toEqual({ n: 4 });

    // Two commits on 2024-03-04: two runs of that night; the later one is the night's point (series read the latest run of a night).
    expect(sqlAll(file, "SELECT r.night, r.started_at AS startedAt, c.sha FROM runs r JOIN run_commits c ON c.run_id = r.id WHERE r.host = 'linux-box' ORDER BY r.started_at")).toEqual([
      { night: '2024-03-04', startedAt: '2024-03-04T10:00:00.000Z', sha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' },
      { night: '2024-03-04', startedAt: '2024-03-04T18:00:00.000Z', sha: '2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e' },
      { night: '2024-03-05', startedAt: '2024-03-05T15:00:00.000Z', sha: '3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f' },
    ]);
    expect(sqlGet(file, "SELECT kind, status, provider, cluster_shape AS shape, json_extract(cluster_info, '$.cpu') AS cpu FROM runs WHERE host = 'old-mac'")).toEqual({
      kind: 'nightly', status: 'complete', provider: 'asv', shape: 'asv:old-mac', cpu: 'Intel(R) Core(TM) i5-2415M CPU @ 2.30GHz',
    });
    expect(sqlAll(file, "SELECT workload, metric, direction FROM metric_directions WHERE workload IN ('bench_orm.track_queries', 'bench_orm.QuerySet.peakmem_load') ORDER BY workload")).toEqual([
      { workload: 'bench_orm.QuerySet.peakmem_load', metric: 'peakmemory', direction: 'lower' },
      { workload: 'bench_orm.track_queries', metric: 'track', direction: 'none' },
    ]);
    expect(sqlGet(file, "SELECT unit FROM results WHERE metric = 'track' LIMIT 1")).toEqual({ unit: 'queries' });
  });

  it('adds only what a results file has gained since it was imported', () => {
    const dir = tempDir('nb-import-');
    cpSync(path.join(fixtures, 'asv-project'), dir, { recursive: true });
    const file = path.join(dir, 'history.sqlite');
    const store = openHistory(file);
    importHistory(store, dir, { suite: 'orm' });
    // asv reran the failed combination of the second commit: its null became a value.
    const gained = path.join(dir, 'results', 'linux-box', '2b3c4d5e-virtualenv-py3.11.json');
    writeFileSync(gained, readFileSync(gained, 'utf8').replace('[0.0021, null]', '[0.0021, 0.0205]'));
    const again = importHistory(store, dir, { suite: 'orm' });
    store.close();
    expect(again).toMatchObject({ newRuns: 0, values: 18, newValues: 1, missing: 1 });
    // Three commits on linux-box, one on old-mac: every one now has the value.
    expect(sqlGet(file, "SELECT count(*) AS n FROM results WHERE workload = 'bench_orm.QuerySet.time_bulk_create(100, ''sqlite'')'")).toEqual({ n: 4 });
  });

  it('nightbench detect finds a step in an imported series as in a recorded one', async () => {
    const dir = tempDir('nb-import-');
    // 20 days near 10 ms, then 10 days near 15 ms: the step is on 2024-01-21.
    const values = Array.from({ length: 30 }, (_, day) => (day < 20 ? 0.010 : 0.015) * (1 + ((day * 7) % 5 - 2) / 200));
    writeAsvHistory(dir, values);
    const file = path.join(dir, 'history.sqlite');

    const imported = await runCli(['history', 'import', dir, '--db', file, '--suite', 'orm', '--json'], { cwd: dir });
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ format: 'asv', runs: 30, values: 30, series: 1, nights: { first: '2024-01-01', last: '2024-01-30' } });

    const before = await runCli(['detect', '--db', file, '--night', '2024-01-20', '--json'], { cwd: dir });
    expect(before.code).toBe(0);
    // One value a night: the detector's persistence path names the step once three nights hold it.
    const step = await runCli(['detect', '--db', file, '--night', '2024-01-23'], { cwd: dir });
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('1 open regression episode:\n  orm/suite.Orm.time_query time [asv:ci-runner · virtualenv-py3.12] since 2024-01-21');
  });

  it('nightbench report writes a page for each imported workload, parameter combinations included', async () => {
    const dir = tempDir('nb-import-');
    const file = path.join(dir, 'history.sqlite');
    expect((await runCli(['history', 'import', path.join(fixtures, 'asv-project'), '--db', file, '--suite', 'orm', '-q'], { cwd: dir })).code).toBe(0);
    const report = await runCli(['report', '--db', file, '--json'], { cwd: dir });
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ workloads: 6, series: 9 });
    const pages = readdirSync(path.join(dir, 'reports/site/workloads/orm'));
    const page = pages.find((name) => name.startsWith('bench_orm.queryset.time_bulk_create-100-sqlite'));
    expect(page).toBeDefined();
    expect(readFileSync(path.join(dir, 'reports/site/workloads/orm', page!), 'utf8')).toContain("time_bulk_create(100, &#39;sqlite&#39;)");
  });

  it('refuses a malformed results file in one line naming the file and the field, and stores nothing of that file', async () => {
    const dir = tempDir('nb-import-');
    cpSync(path.join(fixtures, 'asv-project'), dir, { recursive: true });
    const bad = path.join(dir, 'results', 'linux-box', '3c4d5e6f-virtualenv-py3.11.json');
    writeFileSync(bad, JSON.stringify({ commit_hash: '3c4d5e6f', date: 'yesterday', version: 2, results: {} }));
    const file = path.join(dir, 'history.sqlite');
    const result = await runCli(['history', 'import', dir, '--db', file], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`nightbench: ${bad}: date: Invalid input: expected number, received string\n`);
    expect(sqlGet(file, "SELECT count(*) AS n FROM run_commits WHERE sha LIKE '3c4d5e6f%'")).toEqual({ n: 0 });
  });

  it('says which formats it reads when a source is none of them', async () => {
    const dir = tempDir('nb-import-');
    writeFileSync(path.join(dir, 'notes.json'), '{"hello": "world"}');
    const result = await runCli(['history', 'import', 'notes.json', '--db', path.join(dir, 'h.sqlite')], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/notes\.json: not a format nightbench imports \(asv, github-action-benchmark, bmf\); give --format/);
  });
});

describe('importing github-action-benchmark and BMF, and exporting back out', () => {
  it("detects data.js and keeps each of the action's suites as a suite", async () => {
    const dir = tempDir('nb-import-');
    const file = path.join(dir, 'h.sqlite');
    const result = await runCli(['history', 'import', path.join(fixtures, 'gab-data.js'), '--db', file, '--machine', 'gha-ubuntu', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ format: 'github-action-benchmark', runs: 3, values: 5, suites: ['Python Benchmark', 'Rust Benchmark'], machines: ['gha-ubuntu'] });
    expect(sqlGet(file, "SELECT direction FROM metric_directions WHERE suite = 'Python Benchmark'")).toEqual({ direction: 'higher' });
    expect(sqlGet(file, "SELECT subject, author_name AS author FROM commits WHERE sha LIKE '1111%'")).toEqual({ subject: 'Speed up the tokenizer', author: 'Ada Lovelace' });
  });

  it('a BMF file needs its commit; imported with it, the night exports back as the same BMF values', async () => {
    const dir = tempDir('nb-import-');
    const file = path.join(dir, 'h.sqlite');
    const source = path.join(fixtures, 'bmf.json');
    const without = await runCli(['history', 'import', source, '--db', file], { cwd: dir });
    expect(without).toMatchObject({ code: 2, stderr: `nightbench: ${source}: a BMF file names no commit: give the commit it measured with --commit SHA (and --date)\n` });

    const imported = await runCli(['history', 'import', source, '--db', file, '--suite', 'parser', '--commit', 'abcdef0123', '--date', '2024-03-05T12:00:00Z', '--json'], { cwd: dir });
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ format: 'bmf', runs: 1, values: 5, nights: { first: '2024-03-05', last: '2024-03-05' } });

    const exported = await runCli(['history', 'export', '--db', file, '--format', 'bmf'], { cwd: dir });
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout) as Record<string, Record<string, { value: number }>>;
    const original = JSON.parse(readFileSync(source, 'utf8')) as Record<string, Record<string, { value: number }>>;
    const valuesOf = (d: typeof document) => Object.entries(d).flatMap(([name, measures]) => Object.entries(measures).map(([measure, m]) => [name, measure, m.value]));
    expect(valuesOf(document)).toEqual(expect.arrayContaining(valuesOf(original)));
    expect(valuesOf(document)).toHaveLength(valuesOf(original).length);

    const csv = await runCli(['history', 'export', '--db', file, '--format', 'csv', '--out', 'all.csv', '--json'], { cwd: dir });
    expect(JSON.parse(csv.stdout)).toMatchObject({ format: 'csv', values: 5 });
    expect(readFileSync(path.join(dir, 'all.csv'), 'utf8')).toContain('parser,2024-03-05,2024-03-05T12:00:00.000Z,parser=abcdef0123,bmf,bmf:default,,default,parser::tokenize,,throughput,1,ok,657.9,operations / second,higher');
  });
});
