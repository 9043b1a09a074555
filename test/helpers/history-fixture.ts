/**
 * A recorded history as a small JSON fixture (the nightly result rows of a few metrics, no
 * samples), and back: databases are never committed, but tests must replay real nights.
 * `bench/export-history-fixture.ts` writes fixtures; `loadHistoryFixture` rebuilds a real SQLite
 * history from one through HistoryStore, as the runner would have recorded it.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { HistoryStore } from '../../src/history/store.js';
import type { RepeatStatus, ResultRow } from '../../src/history/types.js';

/** One run's facts, then its values as rows of [workload, version, repeat, status, metric, value, unit]. */
export interface HistoryFixture {
  source: string;
  runs: {
    id: string;
    suite: string;
    night: string;
    startedAt: string;
    environmentName: string;
    environmentFingerprint: string;
    provider: string;
    clusterShape: string;
    commits: Record<string, string>;
    rows: [string, string, number, RepeatStatus, string | null, number | null, string | null][];
  }[];
}

/** The nightly rows of `metrics` as a fixture. */
export function historyFixture(rows: readonly ResultRow[], metrics: readonly string[], source: string): HistoryFixture {
  const runs = new Map<string, HistoryFixture['runs'][number]>();
  for (const row of rows) {
    if (row.kind !== 'nightly' || (row.metric !== null && !metrics.includes(row.metric))) continue;
    let run = runs.get(row.runId);
    if (!run) {
      run = {
        id: row.runId, suite: row.suite, night: row.night, startedAt: row.startedAt, environmentName: row.environmentName,
        environmentFingerprint: row.environmentFingerprint, provider: row.provider, clusterShape: row.clusterShape, commits: row.commits, rows: [],
      };
      runs.set(row.runId, run);
    }
    run.rows.push([row.workload, row.workloadVersion, row.repeat, row.status, row.metric, row.value, row.unit]);
  }
  return { source, runs: [...runs.values()] };
}

export const encodeFixture = (fixture: HistoryFixture): Buffer => gzipSync(JSON.stringify(fixture), { level: 9 });
export const decodeFixture = (bytes: Buffer): HistoryFixture => JSON.parse(gunzipSync(bytes).toString('utf8')) as HistoryFixture;

/** Records every run of the fixture into `store`, through the same calls the runner makes. */
export function loadHistoryFixture(store: HistoryStore, fixture: HistoryFixture): void {
  for (const run of fixture.runs) {
    const [, workers, threads] = /:(\d+)x(\d+):/.exec(run.clusterShape) ?? [];
    store.runs.beginRun({
      id: run.id, kind: 'nightly', suite: run.suite, night: run.night, startedAt: run.startedAt, target: { fixture: fixture.source }, environment: {},
      commits: Object.entries(run.commits).map(([repo, sha]) => ({ repo, sha, parents: [], authorName: '', authorEmail: '', authoredAt: '', committedAt: '', subject: '' })), environmentName: run.environmentName,
      environmentFingerprint: run.environmentFingerprint, provider: run.provider, clusterShape: run.clusterShape, workers: Number(workers ?? 1),
      threadsPerWorker: Number(threads ?? 1), memoryPerWorker: 1, scale: 1, harnessVersion: 'fixture', host: 'fixture', pid: 0, config: {},
    });
    const repeats = new Map<string, { workload: string; version: string; repeat: number; status: RepeatStatus; metrics: { metric: string; value: number; unit: string }[] }>();
    for (const [workload, version, repeat, status, metric, value, unit] of run.rows) {
      const key = `${workload}\u0000${repeat}`;
      let record = repeats.get(key);
      if (!record) repeats.set(key, (record = { workload, version, repeat, status, metrics: [] }));
      if (metric !== null && value !== null) record.metrics.push({ metric, value, unit: unit ?? '' });
    }
    for (const r of repeats.values()) {
      store.runs.recordRepeat({ runId: run.id, workload: r.workload, repeat: r.repeat, workloadVersion: r.version, status: r.status, startedAt: run.startedAt, finishedAt: run.startedAt, metrics: r.metrics, samples: [] });
    }
    store.runs.finishRun(run.id, { status: 'complete', finishedAt: run.startedAt });
  }
}
