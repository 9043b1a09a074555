import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSqliteError, listMigrations, openDatabase, schemaVersion } from '../../src/history/database.js';
import { mergeShardFiles } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import { processIdentity, recordedProcessIsAlive } from '../../src/runner/proc.js';
import { repoRoot } from '../helpers/cli.js';
import { sqlAll, sqlGet } from '../helpers/sql.js';
import { commit, newRun, okRepeat } from './fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

const tempFile = (name = 'history.sqlite') => path.join(tempDir('nb-history-'), name);

describe('history database', () => {
  it('is created in WAL mode at the newest schema version', () => {
    const file = tempFile();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(schemaVersion(db)).toBe(listMigrations().at(-1)!.version);
    db.close();
  });

  it('refuses a database from a newer nightbench', () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openDatabase(file)).toThrow(/schema version 999, newer than this nightbench knows/);
  });

  it('waits out another writer\'s lock in the middle of a run: the repeat is recorded, not lost', async () => {
    const file = tempFile();
    const store = openHistory(file, { busyTimeoutMs: 20 });
    const run = newRun();
    store.runs.beginRun(run);
    // Another process (a merge, a save copying the file) holds the write lock for a while.
    const holder = spawn(process.execPath, ['-e', `const d = new (require('better-sqlite3'))(${JSON.stringify(file)}); d.exec('BEGIN IMMEDIATE'); console.log('held'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, 1500);`], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 1, 10));
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 2, 11));
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(sqlGet(store.file, 'SELECT count(*) AS n FROM repeats')).toEqual({ n: 2 });
    store.close();
  });

  it('gives up on a lock held past the retry budget, in one line', () => {
    const file = tempFile();
    const store = openHistory(file, { busyTimeoutMs: 10, busyRetry: { budgetMs: 100, firstDelayMs: 10, maxDelayMs: 50 } });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    expect(() => store.runs.beginRun(newRun())).toThrow(/is locked by another writer/);
    other.exec('ROLLBACK');
    other.close();
    store.close();
  });

  it('says a file or folder this user may not write cannot be written, whichever of SQLite\'s codes says so', () => {
    // SQLite answers SQLITE_READONLY_DIRECTORY, not SQLITE_READONLY, for a history in a folder this
    // user may not write (the tests run as root, who may write anything, so the error is made here).
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN_ISDIR']) {
      const error = describeSqliteError(Object.assign(new Error('attempt to write a readonly database'), { code }), '/srv/history.sqlite');
      expect(error.message).toBe('history database /srv/history.sqlite cannot be written: attempt to write a readonly database');
    }
  });

  it('names a corrupt file as such', () => {
    const file = tempFile();
    writeFileSync(file, 'this is not a database, just some bytes that are long enough to have a header....');
    expect(() => openDatabase(file)).toThrow(/is corrupt or not a SQLite database/);
  });

  it('reports a writer holding the lock in one line, and keeps what was there', () => {
    const file = tempFile();
    const store = openHistory(file, { busyTimeoutMs: 50 });
    const run = newRun();
    store.runs.beginRun(run);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    expect(() => store.runs.assertWritable()).toThrow(/is locked by another writer/);
    other.exec('ROLLBACK');
    other.close();
    expect(store.runs.resultRows()).toHaveLength(0);
    expect(sqlGet(store.file, 'SELECT count(*) AS n FROM runs')).toEqual({ n: 1 });
    store.close();
  });
});

describe('HistoryStore', () => {
  it('records a run, its repeats, values, samples and commits, and reads them back as rows', () => {
    const store = openHistory(tempFile());
    const run = newRun({ commits: [commit('a'.repeat(40))] });
    store.runs.beginRun(run);
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 1, 10));
    store.runs.recordRepeat({ ...okRepeat(run.id, 'array_sum', 2, 0.1), status: 'failed', error: 'Traceback ...' });
    store.runs.finishRun(run.id, { status: 'partial', finishedAt: '2026-12-01T03:00:00.000Z' });
    const rows = store.runs.resultRows({ kind: 'nightly' });
    // The failed repeat has no values: a failure is never a fast result.
    expect(rows.map((r) => [r.repeat, r.status, r.metric, r.value])).toEqual([
      [1, 'ok', 'peak_memory', 1e9],
      [1, 'ok', 'wall_time', 10],
      [2, 'failed', null, null],
    ]);
    expect(rows[0]!.commits).toEqual({ dask: 'a'.repeat(40) });
    expect(sqlGet(store.file, 'SELECT status FROM runs')).toEqual({ status: 'partial' });
    expect(sqlGet(store.file, 'SELECT process, t, rss FROM samples')).toEqual({ process: 'worker-1', t: '[0,0.25]', rss: '[100000000,200000000]' });
    store.close();
  });

  it('keeps warm-up repeats apart: recorded with their status, never among the measured rows', () => {
    const store = openHistory(tempFile());
    const run = newRun();
    store.runs.beginRun(run);
    store.runs.recordRepeat({ ...okRepeat(run.id, 'array_sum', 1, 14), warmup: true });
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 1, 10));
    expect(store.runs.resultRows().map((r) => [r.repeat, r.metric, r.value])).toEqual([
      [1, 'peak_memory', 1e9],
      [1, 'wall_time', 10],
    ]);
    expect(sqlAll(store.file, `SELECT workload, warmup, status, json_extract(metrics, '$[0].value') AS first FROM warmup_repeats`)).toEqual([
      { workload: 'array_sum', warmup: 1, status: 'ok', first: 14 },
    ]);
    store.close();
  });

  it('numbers warm-ups over the whole run, so that each cluster of an A/B slot may start again at 1', () => {
    const store = openHistory(tempFile());
    const run = newRun();
    store.runs.beginRun(run);
    // An A/B runs one slot at a time into the same run; each slot's fresh cluster counts its warm-ups from 1.
    store.runs.recordRepeat({ ...okRepeat(run.id, 'array_sum', 1, 14), warmup: true });
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 1, 10));
    store.runs.recordRepeat({ ...okRepeat(run.id, 'array_sum', 1, 13), warmup: true });
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 2, 10));
    expect(sqlAll(store.file, `SELECT workload, warmup, json_extract(metrics, '$[0].value') AS first FROM warmup_repeats ORDER BY warmup`)).toEqual([
      { workload: 'array_sum', warmup: 1, first: 14 },
      { workload: 'array_sum', warmup: 2, first: 13 },
    ]);
    store.close();
  });

  it('keeps every repeat recorded before a crash, and marks the dead run incomplete', () => {
    const file = tempFile();
    const store = openHistory(file);
    const run = newRun({ pid: 2 ** 22 + 12345 });
    store.runs.beginRun(run);
    store.runs.recordRepeat(okRepeat(run.id, 'array_sum', 1, 10));
    store.close();
    const reopened = openHistory(file);
    expect(reopened.runs.markAbandonedRuns(recordedProcessIsAlive)).toEqual([run.id]);
    expect(sqlGet(reopened.file, 'SELECT status FROM runs')).toEqual({ status: 'incomplete' });
    expect(reopened.runs.resultRows()).toHaveLength(2);
    reopened.close();
  });

  it('leaves a run of a live process alone', () => {
    const store = openHistory(tempFile());
    store.runs.beginRun(newRun({ ...processIdentity(process.pid) }));
    store.runs.beginRun(newRun());
    expect(store.runs.markAbandonedRuns(recordedProcessIsAlive)).toEqual([]);
    store.close();
  });

  it('declares a run dead when its pid now belongs to another process (another boot, or a later start)', () => {
    const store = openHistory(tempFile());
    const me = processIdentity(process.pid)!;
    const earlierStart = newRun({ ...me, startTicks: me.startTicks - 1 });
    const otherBoot = newRun({ ...me, bootId: 'an-earlier-boot' });
    store.runs.beginRun(earlierStart);
    store.runs.beginRun(otherBoot);
    store.runs.beginRun(newRun({ ...me }));
    expect(store.runs.markAbandonedRuns(recordedProcessIsAlive).sort()).toEqual([earlierStart.id, otherBoot.id].sort());
    store.close();
  });
});

describe('mergeDatabase', () => {
  it('merges shards idempotently: merging twice adds nothing', () => {
    const [a, b, main] = [tempFile('a.sqlite'), tempFile('b.sqlite'), tempFile('main.sqlite')];
    for (const [file, workload] of [[a, 'array_sum'], [b, 'shuffle']] as const) {
      const shard = openHistory(file);
      const run = newRun({ commits: [commit('b'.repeat(40))], shard: workload });
      shard.runs.beginRun(run);
      shard.runs.recordRepeat(okRepeat(run.id, workload, 1, 5));
      shard.runs.finishRun(run.id, { status: 'complete', finishedAt: '2026-12-01T03:00:00.000Z' });
      shard.close();
    }
    const target = openHistory(main);
    const first = mergeShardFiles(target.file, [a])[0]!;
    expect(first.added).toMatchObject({ runs: 1, repeats: 1, samples: 1, commits: 1 });
    mergeShardFiles(target.file, [b]);
    const again = [mergeShardFiles(target.file, [a])[0]!, mergeShardFiles(target.file, [b])[0]!];
    for (const counts of again) expect(Object.values(counts.added).every((n) => n === 0)).toBe(true);
    expect(target.runs.resultRows().map((r) => r.workload).sort()).toEqual(['array_sum', 'array_sum', 'shuffle', 'shuffle']);
    expect(sqlGet(target.file, 'SELECT count(*) AS n FROM commits')).toEqual({ n: 1 });
    target.close();
  });

  it('takes a shard run that finished after an earlier merge copied it running', () => {
    const [shardFile, main] = [tempFile('s.sqlite'), tempFile('m.sqlite')];
    const shard = openHistory(shardFile);
    const run = newRun();
    shard.runs.beginRun(run);
    const target = openHistory(main);
    mergeShardFiles(target.file, [shardFile])[0]!;
    shard.runs.finishRun(run.id, { status: 'complete', finishedAt: '2026-12-01T03:00:00.000Z' });
    shard.close();
    // Counted, so that a history store does not take the merge for an empty one and skip the save.
    expect(mergeShardFiles(target.file, [shardFile])[0]!.added['runs']).toBe(1);
    expect(sqlGet(target.file, 'SELECT status FROM runs')).toEqual({ status: 'complete' });
    target.close();
  });
});

describe('bisects whose process died', () => {
  it('are marked incomplete once their process is gone, and only then', () => {
    const store = openHistory(tempFile());
    const bisect = { createdAt: '2026-12-03T02:00:00Z', mode: 'bisect' as const, judged: 'metric' as const, suite: 'dask', workload: 'shuffle', metric: 'wall_time', goodCommits: { dask: 'a' }, badCommits: { dask: 'b' }, host: hostname(), pid: process.pid };
    store.bisects.beginBisect({ ...bisect, id: 'dead-bisect' });
    store.bisects.beginBisect({ ...bisect, id: 'other-host', host: `not-${hostname()}` });
    expect(store.bisects.markAbandonedBisects(() => true)).toEqual([]);
    expect(store.bisects.markAbandonedBisects(() => false)).toEqual(['dead-bisect']);
    expect(store.bisects.markAbandonedBisects(() => false)).toEqual([]);
    expect(Object.fromEntries(store.bisects.bisects().map((b) => [b.id, b.status]))).toEqual({ 'dead-bisect': 'incomplete', 'other-host': 'running' });
    store.close();
  });
});

describe('A/B tests whose process died', () => {
  it('are judged by pid, boot and start time like runs: a pid that now belongs to another process does not keep one running', () => {
    const store = openHistory(tempFile());
    const me = processIdentity(process.pid)!;
    const test = (id: string) => ({ id, createdAt: '2026-12-03T02:00:00Z', config: {}, order: 'blocks', seed: 1, schedule: [] });
    store.ab.createAbTest(test('live'), me);
    store.ab.createAbTest(test('recycled-pid'), { ...me, startTicks: me.startTicks - 1 });
    store.ab.createAbTest(test('other-boot'), { ...me, bootId: 'an-earlier-boot' });
    expect(store.ab.markAbandonedAbTests(recordedProcessIsAlive).sort()).toEqual(['other-boot', 'recycled-pid']);
    expect(store.ab.markAbandonedAbTests(recordedProcessIsAlive)).toEqual([]);
    store.close();
  });
});
