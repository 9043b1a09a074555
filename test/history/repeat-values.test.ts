import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, openDatabase, schemaVersion } from '../../src/history/database.js';
import { historyFileStatus, mergeShardFiles } from '../../src/history/files.js';
import type { ImportRunRow } from '../../src/history/import-queries.js';
import { openHistory } from '../../src/history/open.js';
import { tempDir } from '../helpers/temp-dir.js';

const tempFile = (name = 'history.sqlite') => path.join(tempDir('nb-repeat-values-'), name);

// Doubles whose shortest text is long, tiny, huge or negative: each must come back bit for bit.
const awkward = [0.1 + 0.2, 1e-300, 123456789.12345679, -2.5e17, 1 / 3];

/** The results rows of a history written at schema 025, one per value, as a tuple each. */
type ValueRow = [runId: string, workload: string, repeat: number, metric: string, value: number, unit: string];

/**
 * A history as nightbench wrote it at schema 025 (values in the results table): two runs, ok and
 * disturbed repeats with values, a failed one without, samples, a run's stored points and a
 * judged night. Returns its values as the results table held them.
 */
function historyAt025(file: string): ValueRow[] {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.unsafeMode(true); // as migrate() applies them: one widens a CHECK through writable_schema
  const before = listMigrations().filter((m) => m.version <= 25);
  for (const migration of before) raw.exec(migration.sql);
  raw.unsafeMode(false);
  raw.pragma(`user_version = ${before.at(-1)!.version}`);
  const run = raw.prepare("INSERT INTO runs (id, kind, suite, night, started_at, status, target, environment, environment_name, environment_fingerprint, provider, cluster_shape, workers, threads_per_worker, memory_per_worker, scale, harness_version, host, config) VALUES (?, 'nightly', 'dask', ?, ?, 'complete', '{}', '{}', 'default', 'f', 'local', 'local:2x1:2GiB', 2, 1, 1, 1, 't', 'h', '{}')");
  const repeat = raw.prepare("INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at, error) VALUES (?, ?, ?, 'v1', ?, 'x', 'y', ?)");
  const value = raw.prepare('INSERT INTO results (run_id, workload, repeat, metric, value, unit) VALUES (?, ?, ?, ?, ?, ?)');
  for (const [runId, night] of [['3f1c9a4e-0000-4000-8000-000000000001', '2026-12-01'], ['0a2b7c4e-0000-4000-8000-000000000002', '2026-12-02']] as const) {
    run.run(runId, night, `${night}T02:00:00Z`);
    awkward.forEach((wall, i) => {
      const r = i + 1;
      repeat.run(runId, 'shuffle', r, r === 4 ? 'disturbed' : 'ok', null);
      // Inserted out of metric order: the stored form orders them.
      value.run(runId, 'shuffle', r, 'wall_time', wall, 's');
      value.run(runId, 'shuffle', r, 'cpu_time', wall * 2, 's');
      value.run(runId, 'shuffle', r, 'peak_memory', 1e9 + r, 'bytes');
    });
    repeat.run(runId, 'join', 1, 'failed', 'Traceback: boom');
  }
  raw.prepare("INSERT INTO samples (run_id, workload, repeat, process, host, t, rss, cpu) VALUES ('3f1c9a4e-0000-4000-8000-000000000001', 'shuffle', 1, 'worker-1', 'h', '[0]', '[1]', '[2]')").run();
  raw.prepare("INSERT INTO run_points (run_id, points) VALUES ('3f1c9a4e-0000-4000-8000-000000000001', '[\"kept\"]')").run();
  raw.prepare("INSERT INTO judged_nights (suite, night, policy, history_version, verdicts, machine, judged_at) VALUES ('dask', '2026-12-02', '{}', (SELECT version FROM history_version), '[]', NULL, 'now')").run();
  const rows = raw.prepare('SELECT run_id, workload, repeat, metric, value, unit FROM results ORDER BY run_id, workload, repeat, metric').raw().all() as ValueRow[];
  raw.close();
  return rows;
}

/** A run as an import writes it, at one commit's time. */
const importedRun = (id: string, workloads: ImportRunRow['workloads']): ImportRunRow => ({
  id, suite: 'asv', night: '2024-03-04', startedAt: '2024-03-04T10:00:00.000Z', environment: {}, host: 'box', harnessVersion: 'imported from asv',
  target: {}, clusterInfo: {}, config: {}, environmentName: 'py3.11', environmentFingerprint: 'e', provider: 'asv', clusterShape: 'asv:box',
  commit: { repo: 'orm', sha: 'a'.repeat(40), parents: [], authorName: 'A', authorEmail: 'a@x', authoredAt: '2024-03-04T10:00:00Z', committedAt: '2024-03-04T10:00:00Z', subject: 's' },
  workloads,
});

const viewRows = (db: Database.Database) => db.prepare('SELECT run_id, workload, repeat, metric, value, unit FROM results ORDER BY run_id, workload, repeat, metric').raw().all() as ValueRow[];

describe('migration 026: a repeat holds its values', () => {
  it('carries every value of a 025 history into its repeat, exactly, and reads them back through the results view', () => {
    const file = tempFile();
    const before = historyAt025(file);
    expect(before).toHaveLength(2 * awkward.length * 3);
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(26);
    expect(db.prepare("SELECT type FROM sqlite_schema WHERE name = 'results'").pluck().get()).toBe('view');
    expect(viewRows(db)).toEqual(before);
    // In metric order, whatever order the values were written in.
    const stored = db.prepare("SELECT metric_values FROM repeats WHERE workload = 'shuffle' AND repeat = 2 LIMIT 1").pluck().get() as string;
    expect(JSON.parse(stored)).toEqual([['cpu_time', awkward[1]! * 2, 's'], ['peak_memory', 1000000002, 'bytes'], ['wall_time', awkward[1], 's']]);
    expect(db.prepare("SELECT DISTINCT metric_values FROM repeats WHERE workload = 'join'").pluck().all()).toEqual(['[]']);
    expect(db.prepare('SELECT count(*) FROM samples').pluck().get()).toBe(1);
    db.close();
    // `db status` still counts the values.
    expect(historyFileStatus(file).rows).toMatchObject({ repeats: 2 * (awkward.length + 1), results: before.length });
  });

  it('keeps the judged night: no value changed (the stored points go with 029, which changes their form)', () => {
    const file = tempFile();
    historyAt025(file);
    const db = openDatabase(file);
    expect(db.prepare('SELECT count(*) FROM run_points').pluck().get()).toBe(0);
    const current = db.prepare('SELECT j.history_version = v.version FROM judged_nights j, history_version v').pluck();
    expect(current.get()).toBe(1);
    // The first repeat recorded after the upgrade (027 arms the version) makes the judged night stale.
    db.prepare("INSERT INTO repeats (run_id, workload, repeat, status, started_at, finished_at) VALUES ('3f1c9a4e-0000-4000-8000-000000000001', 'join', 2, 'failed', 'x', 'y')").run();
    expect(current.get()).toBe(0);
    db.close();
  });

  it('gives the result rows, the workload nights and the drill-downs the values the results table gave', () => {
    const file = tempFile();
    historyAt025(file);
    const store = openHistory(file);
    const rows = store.runs.resultRows({ kind: 'nightly' });
    const nights = [...store.runs.streamWorkloadNights({ kind: 'nightly' })];
    const drill = store.nights.runWorkload('3f1c9a4e-0000-4000-8000-000000000001', 'shuffle');
    const wallTime = store.runs.resultRows({ kind: 'nightly', metric: 'wall_time' });
    store.close();
    // Run by night, then workload, repeat and metric; a failed repeat is one row without a metric.
    expect(rows.map((r) => [r.night, r.workload, r.repeat, r.status, r.metric, r.value])).toEqual(
      ['2026-12-01', '2026-12-02'].flatMap((night) => [
        [night, 'join', 1, 'failed', null, null],
        ...awkward.flatMap((wall, i) => [
          [night, 'shuffle', i + 1, i === 3 ? 'disturbed' : 'ok', 'cpu_time', wall * 2],
          [night, 'shuffle', i + 1, i === 3 ? 'disturbed' : 'ok', 'peak_memory', 1e9 + i + 1],
          [night, 'shuffle', i + 1, i === 3 ? 'disturbed' : 'ok', 'wall_time', wall],
        ]),
      ]),
    );
    expect(wallTime.map((r) => r.value)).toEqual([...awkward, ...awkward]);
    const shuffle = nights.find((n) => n.workload === 'shuffle' && n.run.night === '2026-12-02')!;
    expect(shuffle.metrics.find(([metric]) => metric === 'wall_time')).toEqual(['wall_time', 's', awkward.filter((_, i) => i !== 3), [1, 2, 3, 5]]);
    expect(nights.find((n) => n.workload === 'join')).toMatchObject({ failedRepeats: 1, okRepeats: 0 });
    expect(drill[0]).toMatchObject({ repeat: 1, status: 'ok', metrics: [{ metric: 'cpu_time', value: awkward[0]! * 2, unit: 's' }, { metric: 'peak_memory', value: 1e9 + 1, unit: 'bytes' }, { metric: 'wall_time', value: awkward[0], unit: 's' }] });
    expect(JSON.parse(drill[0]!.timelines.toString())).toHaveLength(1);
  });

  it('merges a shard written at 025 into a history at 026 with every value, once', () => {
    const shard = tempFile('shard.sqlite');
    const before = historyAt025(shard);
    const main = tempFile('main.sqlite');
    openHistory(main).close();
    const [first] = mergeShardFiles(main, [shard]);
    const [again] = mergeShardFiles(main, [shard]);
    expect(first!.added).toMatchObject({ runs: 2, repeats: 2 * (awkward.length + 1), samples: 1 });
    expect(Object.values(again!.added).every((n) => n === 0)).toBe(true);
    const db = new Database(main, { readonly: true });
    expect(viewRows(db)).toEqual(before);
    db.close();
  });

  it('removes the values with their run', () => {
    const file = tempFile();
    historyAt025(file);
    const db = openDatabase(file);
    db.prepare("DELETE FROM runs WHERE id = '3f1c9a4e-0000-4000-8000-000000000001'").run();
    expect(db.prepare('SELECT DISTINCT run_id FROM results').pluck().all()).toEqual(['0a2b7c4e-0000-4000-8000-000000000002']);
    db.close();
  });

  it('gives a repeat an import stored before the values it lacks or holds otherwise, keeping the rest, and counts only those', () => {
    const store = openHistory(tempFile());
    const run = (workloads: ImportRunRow['workloads']) => importedRun('00112233aabbccdd', workloads);
    const first = store.runs.importRuns([run([{ workload: 'bench_a', workloadVersion: 'v1', metrics: [{ metric: 'time', value: 1.5, unit: 'seconds' }, { metric: 'memory', value: 10, unit: 'bytes' }] }])]);
    const second = store.runs.importRuns([run([{ workload: 'bench_a', workloadVersion: 'v1', metrics: [{ metric: 'time', value: 1.25, unit: 'seconds' }, { metric: 'track', value: 3, unit: 'queries' }] }])]);
    const again = store.runs.importRuns([run([{ workload: 'bench_a', workloadVersion: 'v1', metrics: [{ metric: 'time', value: 1.25, unit: 'seconds' }] }])]);
    const rows = store.runs.resultRows().map((r) => [r.workload, r.repeat, r.metric, r.value, r.unit]);
    store.close();
    expect([first, second, again]).toEqual([{ newRuns: 1, newValues: 2 }, { newRuns: 0, newValues: 2 }, { newRuns: 0, newValues: 0 }]);
    expect(rows).toEqual([['bench_a', 1, 'memory', 10, 'bytes'], ['bench_a', 1, 'time', 1.25, 'seconds'], ['bench_a', 1, 'track', 3, 'queries']]);
  });

  it("stores every repeat of runs too large for one statement with its run's id and time, whichever order the batch lists them in", () => {
    const file = tempFile();
    const store = openHistory(file);
    // 120 workloads a run: three statements each (50, 50, 20 rows), with awkward doubles.
    const workloads = (shift: number) => Array.from({ length: 120 }, (_, i) => ({ workload: `bench_${String(i).padStart(3, '0')}`, workloadVersion: `v${i % 3}`, metrics: [{ metric: 'time', value: awkward[i % awkward.length]! * (i + shift), unit: 'seconds' }] }));
    const first = store.runs.importRuns([importedRun('ffff000000000002', workloads(1)), importedRun('0000ffff00000001', workloads(2))]);
    // Again, with one value changed in each run: only those are new.
    const changed = (shift: number) => workloads(shift).map((w, i) => (i === 77 ? { ...w, metrics: [{ ...w.metrics[0]!, value: -1 }] } : w));
    const again = store.runs.importRuns([importedRun('0000ffff00000001', changed(2)), importedRun('ffff000000000002', changed(1))]);
    store.close();
    const db = new Database(file, { readonly: true });
    const stored = db.prepare('SELECT run_id, workload, workload_version, started_at, finished_at, metric_values FROM repeats ORDER BY run_id, workload').raw().all();
    db.close();
    expect([first, again]).toEqual([{ newRuns: 2, newValues: 240 }, { newRuns: 0, newValues: 2 }]);
    const expected = (id: string, shift: number) =>
      changed(shift).map((w) => [id, w.workload, w.workloadVersion, '2024-03-04T10:00:00.000Z', '2024-03-04T10:00:00.000Z', JSON.stringify([['time', w.metrics[0]!.value, 'seconds']])]);
    expect(stored).toEqual([...expected('0000ffff00000001', 2), ...expected('ffff000000000002', 1)]);
  });
});
