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
import { sharedValuesInsert } from './prepared.js';
import { decodeRepeatValues, encodeRepeatValues, type StoredValue } from './repeat-values.js';
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
  /** One entry per workload. */
  workloads: ImportedWorkloadValues[];
}

export interface ImportWriteCounts {
  /** Runs not in the history before. */
  newRuns: number;
  /** Values not in the history before, or changed since. */
  newValues: number;
}

// A run's repeats are written by a multi-row statement: one statement call per row, the calls
// (binding, a step, a statement savepoint, a reset each) cost more than the rows. The run's id and
// time are bound once a statement; each row binds its workload, version and values. A repeat stored
// before takes the values merged in JavaScript (its stored ones, with the file's added or changed).
const upsertRepeats = sharedValuesInsert(
  'INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at, metric_values)',
  "?, column1, 1, column2, 'ok', ?, ?, column3",
  3,
  'ON CONFLICT (run_id, workload, repeat) DO UPDATE SET metric_values = excluded.metric_values',
);

/**
 * A workload's values merged over those stored: the file's value of a metric replaces the stored
 * one. `added` counts the values not stored as they are (a value listed twice counts where it differs).
 */
function mergeValues(stored: readonly StoredValue[], incoming: readonly MetricValue[]): { values: MetricValue[]; added: number } {
  const values = new Map(stored.map(([metric, value, unit]) => [metric, { metric, value, unit }]));
  let added = 0;
  for (const m of incoming) {
    const before = values.get(m.metric);
    if (before !== undefined && before.value === m.value && before.unit === m.unit) continue;
    values.set(m.metric, m);
    added++;
  }
  return { values: [...values.values()], added };
}

/** Runs by id: a batch's repeats then go into their primary key's b-tree in its order (an import of django-asv wrote them 0.1 CPU s faster). */
const byRunId = (a: ImportRunRow, b: ImportRunRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Prepared statements for a bulk import: prepare once, write many batches of runs, each in the caller's transaction. */
export function importWriter(db: Db): (rows: readonly ImportRunRow[]) => ImportWriteCounts {
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
  const storedRepeats = db.prepare('SELECT workload, metric_values FROM repeats WHERE run_id = ? AND repeat = 1').raw();
  /** The run's stored repeats, workload -> its values as stored; empty for a run new to the history. */
  const storedValues = (runId: string) => new Map(storedRepeats.all(runId) as [string, string][]);
  const writeRun = (row: ImportRunRow): ImportWriteCounts => {
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
    // Each value not stored as it is counts as new, so importing the same files again writes
    // nothing and an asv file completed since adds its new values. A stored repeat is decoded only
    // when the file's values, encoded, differ from its text: importing again decodes none.
    const stored = newRuns === 1 ? undefined : storedValues(row.id);
    let newValues = 0;
    const repeats: unknown[] = [];
    for (const w of row.workloads) {
      const incoming = encodeRepeatValues(w.metrics);
      const before = stored?.get(w.workload);
      if (before === incoming) continue;
      // A new workload of one value (every asv and github-action-benchmark value) is stored as
      // the file has it; otherwise the values are merged, and a stored workload keeps its version.
      if (before === undefined && w.metrics.length === 1) {
        newValues++;
        repeats.push(w.workload, w.workloadVersion, incoming);
        continue;
      }
      const { values, added } = mergeValues(before === undefined ? [] : decodeRepeatValues(before), w.metrics);
      if (added === 0) continue;
      newValues += added;
      repeats.push(w.workload, w.workloadVersion, encodeRepeatValues(values));
    }
    upsertRepeats(db, [row.id, row.startedAt, row.startedAt], repeats);
    return { newRuns, newValues };
  };
  return (rows) => {
    const counts = { newRuns: 0, newValues: 0 };
    for (const row of [...rows].sort(byRunId)) {
      const written = writeRun(row);
      counts.newRuns += written.newRuns;
      counts.newValues += written.newValues;
    }
    return counts;
  };
}
