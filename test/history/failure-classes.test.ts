import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, openDatabase } from '../../src/history/database.js';
import { openHistory } from '../../src/history/open.js';
import type { RepeatFailure, RepeatRecord } from '../../src/history/types.js';
import { commit, newRun, okRepeat } from './fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

const tempFile = () => path.join(tempDir('nb-failures-'), 'history.sqlite');
const code: RepeatFailure = { class: 'code', cause: 'the workload failed' };
const machine: RepeatFailure = { class: 'infrastructure', cause: 'the cluster did not start or could not be reset' };

function failedRepeat(runId: string, workload: string, repeat: number, failure: RepeatFailure): RepeatRecord {
  return { ...okRepeat(runId, workload, repeat, 1), status: 'failed', error: `${failure.cause}: boom`, failure, metrics: [], samples: [] };
}

describe('failure classes', () => {
  it('stores the class and cause of each failed repeat, and only code failures make a night fail', () => {
    const store = openHistory(tempFile());
    const run = newRun({ commits: [commit('a1')] });
    store.runs.beginRun(run);
    // raises: a code failure. flaky: the cluster failed once, the retry passed. lost: every repeat was the machine's.
    store.runs.recordRepeat(okRepeat(run.id, 'raises', 1, 1));
    store.runs.recordRepeat(failedRepeat(run.id, 'raises', 2, code));
    store.runs.recordRepeat(failedRepeat(run.id, 'flaky', 1, machine));
    store.runs.recordRepeat(okRepeat(run.id, 'flaky', 2, 1));
    store.runs.recordRepeat(okRepeat(run.id, 'fine', 1, 1));
    store.runs.recordRepeat(failedRepeat(run.id, 'lost', 1, machine));
    store.runs.finishRun(run.id, { status: 'partial', finishedAt: '2026-12-01T03:00:00Z' });
    const outcomes = store.nights.nightOutcomes('');
    store.close();
    expect(outcomes.map((o) => [o.workload, o.passed, o.error]).sort()).toEqual([
      ['fine', true, undefined],
      ['flaky', true, undefined],
      ['raises', false, 'the workload failed: boom'],
    ]);
  });

  it('classes the failures recorded before the column existed by what the runner wrote', () => {
    const file = tempFile();
    const before = listMigrations().filter((m) => m.version < 10);
    const raw = new Database(file);
    raw.unsafeMode(true); // as migrate() applies them: one widens a CHECK through writable_schema
    for (const migration of before) raw.exec(migration.sql);
    raw.unsafeMode(false);
    raw.pragma(`user_version = ${before.at(-1)!.version}`);
    raw.prepare("INSERT INTO runs (id, kind, suite, night, started_at, status, target, environment, environment_name, environment_fingerprint, provider, cluster_shape, workers, threads_per_worker, memory_per_worker, scale, harness_version, host, config) VALUES ('r', 'nightly', 's', '2026-12-01', 'x', 'partial', '{}', '{}', 'default', 'f', 'local', 'c', 1, 1, 1, 1, 't', 'h', '{}')").run();
    const repeat = raw.prepare("INSERT INTO repeats (run_id, workload, repeat, status, started_at, finished_at, error) VALUES ('r', ?, 1, ?, 'x', 'y', ?)");
    repeat.run('cluster', 'failed', 'cluster: scheduler did not start');
    repeat.run('interrupted', 'failed', 'interrupted');
    repeat.run('raises', 'failed', 'exit 1\nValueError');
    repeat.run('hangs', 'timeout', 'exceeded the time limit of 4s');
    repeat.run('fine', 'ok', null);
    raw.close();
    const db = openDatabase(file);
    const rows = db.prepare('SELECT workload, failure_class AS class, failure_cause AS cause FROM repeats ORDER BY workload').all();
    db.close();
    expect(rows).toEqual([
      { workload: 'cluster', class: 'infrastructure', cause: 'the cluster did not start or could not be reset' },
      { workload: 'fine', class: null, cause: null },
      { workload: 'hangs', class: 'code', cause: 'the workload passed its time limit' },
      { workload: 'interrupted', class: 'infrastructure', cause: 'the runner was interrupted' },
      { workload: 'raises', class: 'code', cause: 'the workload failed' },
    ]);
  });
});
