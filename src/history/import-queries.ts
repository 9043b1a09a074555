/**
 * Writes history brought from other tools (src/interchange): a run per commit, machine and
 * environment, one repeat per workload holding the tool's value. Idempotent by construction:
 * run ids are derived from what identifies the run in the tool, runs, commits and repeats are
 * inserted only when new and a stored repeat takes only the values it lacks or holds otherwise, so
 * the same files imported twice store every value once, and a file the tool has since completed
 * adds its new values.
 *
 * @module
 */
import type { Db } from './database.js';
import { rowsInsert } from './prepared.js';
import { decodeRepeatValues, encodeRepeatValues } from './repeat-values.js';
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

// A run's repeats are written by a multi-row statement: one statement call per row, the calls
// (binding, a step, a statement savepoint, a reset each) cost more than the rows. A repeat stored
// before takes the values merged in JavaScript (its stored ones, with the file's added or changed).
const upsertRepeats = rowsInsert(
  'INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at, metric_values) VALUES',
  "(?, ?, 1, ?, 'ok', ?, ?, ?)",
  'ON CONFLICT (run_id, workload, repeat) DO UPDATE SET metric_values = excluded.metric_values',
);

/** A workload's one repeat being written: its version and its values by metric. */
interface WorkloadValues {
  workloadVersion: string;
  values: Map<string, MetricValue>;
  changed: boolean;
}

/** Prepared statements for a bulk import: prepare once, write many runs in one transaction. */
export function importWriter(db: Db): (row: ImportRunRow) => ImportWriteCounts {
  // A batch of a large import touches most of the repeats' index pages: with SQLite's default
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
  const storedRepeats = db.prepare('SELECT workload, workload_version, metric_values FROM repeats WHERE run_id = ? AND repeat = 1').raw();
  /** The run's workloads as stored; none for a run new to the history. */
  const storedWorkloads = (runId: string): Map<string, WorkloadValues> => {
    const workloads = new Map<string, WorkloadValues>();
    for (const [workload, workloadVersion, stored] of storedRepeats.iterate(runId) as Iterable<[string, string, string]>) {
      const values = new Map(decodeRepeatValues(stored).map(([metric, value, unit]) => [metric, { metric, value, unit }]));
      workloads.set(workload, { workloadVersion, values, changed: false });
    }
    return workloads;
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
    // Each value not stored as it is counts as new (a value listed twice counts where it differs),
    // so importing the same files again writes nothing and an asv file completed since adds its new values.
    const workloads = newRuns === 1 ? new Map<string, WorkloadValues>() : storedWorkloads(row.id);
    let newValues = 0;
    for (const w of row.workloads) {
      let workload = workloads.get(w.workload);
      if (workload === undefined) workloads.set(w.workload, (workload = { workloadVersion: w.workloadVersion, values: new Map(), changed: true }));
      for (const m of w.metrics) {
        const stored = workload.values.get(m.metric);
        if (stored !== undefined && stored.value === m.value && stored.unit === m.unit) continue;
        workload.values.set(m.metric, m);
        workload.changed = true;
        newValues++;
      }
    }
    const repeats: unknown[] = [];
    for (const [name, w] of workloads) if (w.changed) repeats.push(row.id, name, w.workloadVersion, row.startedAt, row.startedAt, encodeRepeatValues([...w.values.values()]));
    upsertRepeats(db, repeats);
    return { newRuns, newValues };
  };
}
