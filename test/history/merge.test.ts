/**
 * Merging databases keeps what the source knew: the suite's declared metric directions, and a
 * run whose writer ended mid-run ends as incomplete instead of running forever.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { mergeRunsInto, mergeShardFiles } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import { sqlAll } from '../helpers/sql.js';
import { newRun, okRepeat } from './fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
beforeEach(() => {
  dir = tempDir('nightbench-merge-');
});

const directionsOf = (db: string) => {
  const store = openHistory(db);
  try {
    return store.runs.metricDirections();
  } finally {
    store.close();
  }
};

describe('merging databases', () => {
  it('carries the declared metric directions, the source\'s declaration winning', () => {
    const shard = openHistory(file('shard.sqlite'));
    shard.runs.recordMetricDirections([{ suite: 'dask', workload: 'shuffle', metric: 'throughput', direction: 'higher' }]);
    shard.close();
    const history = openHistory(file('history.sqlite'));
    history.runs.recordMetricDirections([{ suite: 'dask', workload: 'shuffle', metric: 'throughput', direction: 'lower' }]);
    history.close();

    mergeShardFiles(file('history.sqlite'), [file('shard.sqlite')]);
    expect(directionsOf(file('history.sqlite'))).toEqual([{ suite: 'dask', workload: 'shuffle', metric: 'throughput', direction: 'higher' }]);
    mergeRunsInto(file('stored.sqlite'), file('history.sqlite'));
    expect(directionsOf(file('stored.sqlite'))).toEqual([{ suite: 'dask', workload: 'shuffle', metric: 'throughput', direction: 'higher' }]);
  });

  it('ends a shard\'s run left running as incomplete, keeping its repeats; the run merged again finished takes its real status', () => {
    const shard = openHistory(file('shard.sqlite'));
    const run = newRun();
    shard.runs.beginRun(run);
    shard.runs.recordRepeat(okRepeat(run.id, 'sum', 1, 10));
    shard.close();

    const [counts] = mergeShardFiles(file('history.sqlite'), [file('shard.sqlite')]);
    expect(counts!.added['repeats']).toBe(1);
    const runs = () => sqlAll(file('history.sqlite'), 'SELECT status, error FROM runs');
    expect(runs()).toEqual([{ status: 'incomplete', error: expect.stringContaining('its runner stopped before it finished') }]);

    const later = openHistory(file('shard.sqlite'));
    later.runs.finishRun(run.id, { status: 'complete', finishedAt: '2026-12-01T03:00:00.000Z' });
    later.close();
    mergeShardFiles(file('history.sqlite'), [file('shard.sqlite')]);
    expect(runs()).toEqual([{ status: 'complete', error: null }]);
  });

  it('merges the readable shards when one is corrupt, naming the corrupt one', () => {
    const shard = openHistory(file('good.sqlite'));
    const run = newRun();
    shard.runs.beginRun(run);
    shard.runs.recordRepeat(okRepeat(run.id, 'sum', 1, 10));
    shard.close();
    writeFileSync(file('corrupt.sqlite'), 'not a database '.repeat(100));
    const unreadable: number[] = [];
    const merged = mergeShardFiles(file('history.sqlite'), [file('corrupt.sqlite'), file('good.sqlite')], undefined, (_error, index) => unreadable.push(index));
    expect(unreadable).toEqual([0]);
    expect(merged.map((m) => m.added['repeats'])).toEqual([1]);
    expect(() => mergeShardFiles(file('history.sqlite'), [file('corrupt.sqlite')])).toThrow(/is corrupt or not a SQLite database/);
  });

  it('refuses the history given as its own shard at once, saying so (not "database is locked")', () => {
    openHistory(file('history.sqlite')).close();
    const began = Date.now();
    expect(() => mergeShardFiles(file('history.sqlite'), [path.join(dir, '.', 'history.sqlite')])).toThrow(/history\.sqlite is the history itself, not a shard$/);
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('leaves a running run running when the writer may still be at work (a history save)', () => {
    const ours = openHistory(file('ours.sqlite'));
    ours.runs.beginRun(newRun());
    ours.close();
    mergeRunsInto(file('stored.sqlite'), file('ours.sqlite'));
    expect(sqlAll(file('stored.sqlite'), 'SELECT status FROM runs')).toEqual([{ status: 'running' }]);
  });
});
