import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupSeries, groupWorkloadNights } from '../../src/detect/series.js';
import { openDatabase } from '../../src/history/database.js';
import { openHistory } from '../../src/history/open.js';
import { HistoryStore } from '../../src/history/store.js';
import { decodeRunPoints, encodeRunPoints, type RunFacts, type WorkloadNight } from '../../src/history/workload-nights.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const tempFile = () => path.join(tempDir('nb-run-points-'), 'history.sqlite');

/** Two cluster shapes, a workload failing on two nights, a run cut short, and a disturbed repeat. */
function writeHistory(store: HistoryStore): SyntheticHistory {
  const history = writeSyntheticHistory(store, {
    seed: 5, workloads: ['shuffle', 'rechunk', 'join'], nights: 6, repeats: 3, clusterShapes: ['local:2x1:2GiB', 'local:4x1:2GiB'],
    failures: [{ workload: 'rechunk', nights: [2, 3] }], cutShort: { night: 5, workload: 'rechunk', measured: 1 },
  });
  recordDisturbed(store, history.runIds['local:2x1:2GiB']![1]!, 4);
  return history;
}

function recordDisturbed(store: HistoryStore, runId: string, repeat: number): void {
  store.runs.recordRepeat({
    runId, workload: 'join', repeat, workloadVersion: '1', status: 'disturbed', startedAt: 'x', finishedAt: 'y', disturbance: 'worker-2 left',
    metrics: [{ metric: 'wall_time', unit: 's', value: 99 }], samples: [],
  });
}

const filter = { kind: 'nightly', wholePointsOnly: true } as const;
const fromRows = (store: HistoryStore) => groupSeries(store.runs.resultRows(filter));
const fromRunPoints = (store: HistoryStore) => groupWorkloadNights(store.runs.streamWorkloadNights(filter));
/** A history file holding `writeHistory`'s nights, closed, and the series its rows give. */
function closedHistory(): { file: string; expected: ReturnType<typeof fromRows> } {
  const file = tempFile();
  const writer = openHistory(file);
  writeHistory(writer);
  const expected = fromRows(writer);
  writer.close();
  return { file, expected };
}

const storedRuns = (file: string) => {
  const db = new Database(file, { readonly: true });
  const runs = db.prepare('SELECT run_id FROM run_points ORDER BY run_id').pluck().all() as string[];
  db.close();
  return runs;
};

describe('run points: each run folded once per workload and kept', () => {
  it('gives the series the result rows give, when it folds a run and when it reads it back', () => {
    const file = tempFile();
    const store = openHistory(file);
    const history = writeHistory(store);
    const expected = fromRows(store);
    expect(expected.length).toBe(2 * 3 * 4);
    expect(fromRunPoints(store)).toEqual(expected);
    expect(storedRuns(file)).toEqual(Object.values(history.runIds).flat().sort());
    expect(fromRunPoints(store)).toEqual(expected);
    // What the fold must carry: failed nights, a disturbed repeat kept out of the values, a cut-short workload left out.
    const join = expected.find((s) => s.identity.workload === 'join' && s.identity.metric === 'wall_time' && s.identity.clusterShape === 'local:2x1:2GiB')!;
    expect(join.points[1]).toMatchObject({ okRepeats: 3, disturbedRepeats: 1, values: expect.not.arrayContaining([99]) });
    const rechunk = expected.find((s) => s.identity.workload === 'rechunk' && s.identity.metric === 'wall_time' && s.identity.clusterShape === 'local:2x1:2GiB')!;
    expect(rechunk.points.map((p) => p.status)).toEqual(['ok', 'ok', 'failed', 'failed', 'ok']);
    store.close();
  });

  it('drops a run kept before whenever its repeats or values change, so a read never misses them', () => {
    const file = tempFile();
    const store = openHistory(file);
    const history = writeHistory(store);
    const runId = history.runIds['local:4x1:2GiB']![2]!;
    const changes: [string, (db: Database.Database) => void][] = [
      ['a repeat recorded later', () => recordDisturbed(store, runId, 4)],
      // A repeat's values are its row's (migration 026): a value changes only with its repeat's row.
      ['a value added to a repeat', (db) => db.prepare(`UPDATE repeats SET metric_values = json_insert(metric_values, '$[#]', json_array('spilled_bytes', 7, 'bytes')) WHERE run_id = ? AND workload = 'shuffle' AND repeat = 1`).run(runId)],
      ['a value changed', (db) => db.prepare(`UPDATE repeats SET metric_values = json_replace(metric_values, '$[0][1]', (metric_values ->> '$[0][1]') * 2) WHERE run_id = ? AND workload = 'shuffle'`).run(runId)],
      ['a value removed', (db) => db.prepare(`UPDATE repeats SET metric_values = json_remove(metric_values, '$[0]') WHERE run_id = ? AND workload = 'join' AND repeat = 2`).run(runId)],
      ['a repeat changed', (db) => db.prepare("UPDATE repeats SET status = 'failed' WHERE run_id = ? AND workload = 'join' AND repeat = 1").run(runId)],
    ];
    for (const [change, apply] of changes) {
      fromRunPoints(store);
      expect(storedRuns(file), change).toContain(runId);
      const writer = new Database(file);
      apply(writer);
      writer.close();
      expect(storedRuns(file), change).not.toContain(runId);
      expect(fromRunPoints(store), change).toEqual(fromRows(store));
    }
    store.close();
  });

  it('reads a read-only history without writing to it', () => {
    const { file, expected } = closedHistory();
    const reader = openHistory(file, { readonly: true });
    expect(fromRunPoints(reader)).toEqual(expected);
    reader.close();
    expect(storedRuns(file)).toEqual([]);
  });

  it('reads a history it opened for writing but may not write (a file of another user), keeping nothing', () => {
    const { file, expected } = closedHistory();
    // What SQLite does with a file this user may not write: it opens, and refuses each write as
    // SQLITE_READONLY. query_only refuses them the same way for a test that runs as root.
    const db = openDatabase(file);
    db.pragma('query_only = ON');
    const reader = new HistoryStore(db, file);
    expect(fromRunPoints(reader)).toEqual(expected);
    reader.close();
    expect(storedRuns(file)).toEqual([]);
  });

  it('reads on, keeping nothing, while another writer holds the history', () => {
    const file = tempFile();
    const store = openHistory(file, { busyTimeoutMs: 20 });
    writeHistory(store);
    const expected = fromRows(store);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    expect(fromRunPoints(store)).toEqual(expected);
    other.exec('ROLLBACK');
    other.close();
    expect(storedRuns(file)).toEqual([]);
    store.close();
  });
});

describe('the stored form of a run', () => {
  const run: RunFacts = {
    runId: 'r1', kind: 'nightly', suite: 's', night: '2026-12-07', startedAt: '2026-12-07T02:00:00Z', commits: { dask: 'abc' },
    environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB',
  };
  const nights: WorkloadNight[] = [
    { run, workload: 'shuffle — 東京', workloadVersion: '2', okRepeats: 2, disturbedRepeats: 1, failedRepeats: 0, metrics: [['wall_time', 's', [0.1 + 0.2, 1e-300], [1, 3]], ['tasks', null, [], []]] },
    { run, workload: 'join', workloadVersion: '1', okRepeats: 0, disturbedRepeats: 0, failedRepeats: 3, metrics: [] },
    { run, workload: 'rechunk', workloadVersion: '1', okRepeats: 1, disturbedRepeats: 0, failedRepeats: 0, metrics: [['wall_time', 's', [Number.MAX_VALUE], [7]]] },
  ];

  it('gives back every workload, count, string and double exactly, wherever the driver put its bytes', () => {
    const stored = encodeRunPoints(nights);
    expect([...decodeRunPoints(run, stored)]).toEqual(nights);
    // A copy one byte into a larger buffer: the values' view cannot be taken in place.
    const shifted = new Uint8Array(stored.length + 1);
    shifted.set(stored, 1);
    expect([...decodeRunPoints(run, shifted.subarray(1))]).toEqual(nights);
    expect([...decodeRunPoints(run, encodeRunPoints([]))]).toEqual([]);
  });

  it('refuses a stored form it does not know, with the run named', () => {
    const stored = encodeRunPoints(nights);
    stored.writeUInt32LE(2, 0);
    expect(() => [...decodeRunPoints(run, stored)]).toThrow('run r1: its stored points are of form 2, this nightbench reads form 1');
  });
});
