import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, openDatabase, schemaVersion } from '../../src/history/database.js';
import { openHistory } from '../../src/history/open.js';
import { newRun, okRepeat } from './fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

const tempFile = () => path.join(tempDir('nb-results-keyed-'), 'history.sqlite');

/** A history as nightbench wrote it before migration 021: results a rowid table with results_by_series. */
function historyBefore021(file: string): void {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.unsafeMode(true); // as migrate() applies them: one widens a CHECK through writable_schema
  const before = listMigrations().filter((m) => m.version < 21);
  for (const migration of before) raw.exec(migration.sql);
  raw.unsafeMode(false);
  raw.pragma(`user_version = ${before.at(-1)!.version}`);
  raw.prepare("INSERT INTO runs (id, kind, suite, night, started_at, status, target, environment, environment_name, environment_fingerprint, provider, cluster_shape, workers, threads_per_worker, memory_per_worker, scale, harness_version, host, config) VALUES (?, 'nightly', 'dask', ?, ?, 'complete', '{}', '{}', 'default', 'f', 'local', 'local:2x1:2GiB', 2, 1, 1, 1, 't', 'h', '{}')").run('run-1', '2026-12-01', '2026-12-01T02:00:00Z');
  const repeat = raw.prepare("INSERT INTO repeats (run_id, workload, repeat, status, started_at, finished_at) VALUES ('run-1', ?, ?, 'ok', 'x', 'y')");
  const value = raw.prepare("INSERT INTO results (run_id, workload, repeat, metric, value, unit) VALUES ('run-1', ?, ?, ?, ?, 's')");
  for (const workload of ['shuffle', 'rechunk']) {
    for (const r of [1, 2]) {
      repeat.run(workload, r);
      value.run(workload, r, 'wall_time', 10 * r);
      value.run(workload, r, 'cpu_time', 20 * r);
    }
  }
  raw.close();
}

describe('migration 021: results keyed by their primary key alone', () => {
  // Migration 026 then moves the values into their repeats' rows (test/history/repeat-values.test.ts): read through the results view.
  it('keeps every value of an older history and drops the by-series index', () => {
    const file = tempFile();
    historyBefore021(file);
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(21);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'results_by_series'").all()).toEqual([]);
    expect(db.prepare('SELECT workload, repeat, metric, value, unit FROM results ORDER BY workload, repeat, metric').all()).toEqual([
      { workload: 'rechunk', repeat: 1, metric: 'cpu_time', value: 20, unit: 's' },
      { workload: 'rechunk', repeat: 1, metric: 'wall_time', value: 10, unit: 's' },
      { workload: 'rechunk', repeat: 2, metric: 'cpu_time', value: 40, unit: 's' },
      { workload: 'rechunk', repeat: 2, metric: 'wall_time', value: 20, unit: 's' },
      { workload: 'shuffle', repeat: 1, metric: 'cpu_time', value: 20, unit: 's' },
      { workload: 'shuffle', repeat: 1, metric: 'wall_time', value: 10, unit: 's' },
      { workload: 'shuffle', repeat: 2, metric: 'cpu_time', value: 40, unit: 's' },
      { workload: 'shuffle', repeat: 2, metric: 'wall_time', value: 20, unit: 's' },
    ]);
    db.close();
  });

  it('removes the values with their run', () => {
    const file = tempFile();
    historyBefore021(file);
    const db = openDatabase(file);
    db.prepare("DELETE FROM runs WHERE id = 'run-1'").run();
    expect(db.prepare('SELECT count(*) FROM results').pluck().get()).toBe(0);
    db.close();
  });

  it('reads the migrated values back as result rows and as workload nights', () => {
    const file = tempFile();
    historyBefore021(file);
    const store = openHistory(file);
    const rows = store.runs.resultRows({ kind: 'nightly', workload: 'shuffle', metric: 'wall_time' });
    const shuffle = [...store.runs.streamWorkloadNights({ kind: 'nightly' })].find((night) => night.workload === 'shuffle');
    store.close();
    expect(rows.map((row) => [row.runId, row.night, row.workload, row.repeat, row.metric, row.value, row.unit])).toEqual([
      ['run-1', '2026-12-01', 'shuffle', 1, 'wall_time', 10, 's'],
      ['run-1', '2026-12-01', 'shuffle', 2, 'wall_time', 20, 's'],
    ]);
    expect(shuffle?.metrics.find(([metric]) => metric === 'wall_time')).toEqual(['wall_time', 's', [10, 20], [1, 2]]);
  });

  it('hands the pages their values run by run in night order, whatever order the runs were recorded or their ids sort in', () => {
    const store = openHistory(tempFile());
    // Recorded out of order, as a backfill does, with ids that sort against the nights.
    const nights = [['run-a', '2026-12-03'], ['run-c', '2026-12-01'], ['run-b', '2026-12-02']] as const;
    for (const [id, night] of nights) {
      store.runs.beginRun(newRun({ id, night, startedAt: `${night}T02:00:00.000Z` }));
      store.runs.recordRepeat(okRepeat(id, 'shuffle', 1, 10));
      store.runs.finishRun(id, { status: 'complete', finishedAt: `${night}T03:00:00.000Z` });
    }
    const { points } = store.nights.reportHistory();
    store.close();
    expect(points!.map((p) => p.runId)).toEqual(['run-c', 'run-b', 'run-a']);
  });
});
