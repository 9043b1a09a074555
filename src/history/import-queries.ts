/**
 * Writes history brought from other tools (src/interchange): a run per commit, machine and
 * environment, one repeat per workload holding the tool's value. Idempotent by construction:
 * run ids are derived from what identifies the run in the tool, runs, commits and repeats are
 * inserted only when new and values are upserted, so the same files imported twice store every
 * value once, and a file the tool has since completed adds its new values.
 *
 * @module
 */
import type { Db } from './database.js';
import { rowsInsert } from './prepared.js';
import type { CommitInfo, Comparability, MetricValue } from './types.js';

export interface ImportedWorkloadValues {
  workload: string;
  workloadVersion: string;
  metrics: MetricValue[];
}

/**
 * A run as the history stores it, built from another tool's record (src/interchange/history-rows.ts).
 * The tool's machine has no worker count or memory of nightbench's kind: one worker, memory 0 (unknown).
 */
export interface ImportRunRow extends Comparability {
  id: string;
  suite: string;
  night: string;
  startedAt: string;
  environment: unknown;
  host: string;
  harnessVersion: string;
  target: unknown;
  /** What the tool recorded of the machine (asv's machine.json). */
  clusterInfo: unknown;
  config: unknown;
  commit: CommitInfo;
  workloads: ImportedWorkloadValues[];
}

export interface ImportWriteCounts {
  /** Runs not in the history before. */
  newRuns: number;
  /** Values not in the history before, or changed since. */
  newValues: number;
}

// A run's repeats and values are written by multi-row statements: one statement call per row,
// the calls (binding, a step, a statement savepoint, a reset each) cost more than the rows.
const insertRepeats = rowsInsert(
  'INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at) VALUES',
  "(?, ?, 1, ?, 'ok', ?, ?)",
  'ON CONFLICT DO NOTHING',
);
const upsertValues = rowsInsert(
  'INSERT INTO results (run_id, workload, repeat, metric, value, unit) VALUES',
  '(?, ?, 1, ?, ?, ?)',
  `ON CONFLICT (run_id, workload, repeat, metric) DO UPDATE SET value = excluded.value, unit = excluded.unit
   WHERE value IS NOT excluded.value OR unit IS NOT excluded.unit`,
);

/** Prepared statements for a bulk import: prepare once, write many runs in one transaction. */
export function importWriter(db: Db): (row: ImportRunRow) => ImportWriteCounts {
  // A batch of a large import touches most of the results' index pages: with SQLite's default
  // cache (16 MB here) it would write and read them back many times within one transaction.
  db.pragma('cache_size = -262144');
  const insertRun = db.prepare(
    `INSERT INTO runs (id, kind, suite, night, started_at, finished_at, status, target, environment_name, environment_fingerprint, environment,
       provider, cluster_shape, workers, threads_per_worker, memory_per_worker, scale, harness_version, host, cluster_info, config)
     VALUES (@id, 'nightly', @suite, @night, @startedAt, @startedAt, 'complete', @target, @environmentName, @environmentFingerprint, @environment,
       @provider, @clusterShape, 1, 1, 0, 1, @harnessVersion, @host, @clusterInfo, @config)
     ON CONFLICT (id) DO NOTHING`,
  );
  const insertCommit = db.prepare(
    `INSERT INTO commits (repo, sha, parents, author_name, author_email, authored_at, committed_at, subject)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repo, sha) DO NOTHING`,
  );
  const insertRunCommit = db.prepare('INSERT INTO run_commits (run_id, repo, sha) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const storedValues = db.prepare('SELECT workload, metric, value, unit FROM results WHERE run_id = ? AND repeat = 1').raw();
  /**
   * Whether every value of the run is stored as it is: importing the same files again then
   * reads each run once instead of trying every value's upsert. Any difference writes the whole
   * run as before, so duplicates in a source resolve as the upserts always did.
   */
  const storesEvery = (row: ImportRunRow): boolean => {
    const stored = new Map<string, [string, number, string][]>();
    for (const [workload, ...value] of storedValues.iterate(row.id) as Iterable<[string, string, number, string]>) {
      const values = stored.get(workload);
      if (values) values.push(value);
      else stored.set(workload, [value]);
    }
    return row.workloads.every((w) => {
      const values = stored.get(w.workload);
      return values !== undefined && w.metrics.every((m) => values.some(([metric, value, unit]) => metric === m.metric && value === m.value && unit === m.unit));
    });
  };
  return (row) => {
    const newRuns = insertRun.run({
      ...row,
      target: JSON.stringify(row.target),
      environment: JSON.stringify(row.environment),
      clusterInfo: JSON.stringify(row.clusterInfo),
      config: JSON.stringify(row.config),
    }).changes;
    const c = row.commit;
    insertCommit.run(c.repo, c.sha, c.parents.join(' '), c.authorName, c.authorEmail, c.authoredAt, c.committedAt, c.subject);
    insertRunCommit.run(row.id, c.repo, c.sha);
    if (newRuns === 0 && storesEvery(row)) return { newRuns, newValues: 0 };
    const repeats: unknown[] = [];
    const values: unknown[] = [];
    for (const w of row.workloads) {
      repeats.push(row.id, w.workload, w.workloadVersion, row.startedAt, row.startedAt);
      for (const m of w.metrics) values.push(row.id, w.workload, m.metric, m.value, m.unit);
    }
    insertRepeats(db, repeats);
    return { newRuns, newValues: upsertValues(db, values) };
  };
}
