/**
 * The runs' SQL: a run begun with its commits, each repeat with its values and samples (warm-ups
 * apart; a repeat's samples also cut to its drill-down's timelines, once: sample-timelines.ts),
 * the run's outcome, and every repeat read back as result rows. RunStore (run-store.ts) wraps
 * each write in a transaction. The writes go through statements prepared once: a night
 * writes thousands of rows.
 *
 * @module
 */
import { insertAbsentMetrics } from './backfill-queries.js';
import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import { preparedOnce, rowsInsert } from './prepared.js';
import { decodeRepeatValues, encodeRepeatValues } from './repeat-values.js';
import { encodeRepeatTimelines } from './sample-timelines.js';
import type { CommitInfo, NewRun, RepeatRecord, ResultRow, RunKind, RunOutcome } from './types.js';
import type { RunFacts } from './workload-nights.js';
import { cutShortCondition } from './whole-points-queries.js';

/** Which runs' repeats `selectResultRows` reads; every field given must match. */
export interface ResultFilter {
  kind?: RunKind;
  suite?: string;
  runIds?: string[];
  sinceNight?: string;
  workload?: string;
  metric?: string;
  /** Leaves out workloads an incomplete run cut short. */
  wholePointsOnly?: boolean;
}

export function insertRun(db: Db, run: NewRun): void {
  preparedOnce(
    db,
    `INSERT INTO runs (id, kind, suite, night, started_at, status, target, environment_name, environment_fingerprint, environment,
       provider, cluster_shape, workers, threads_per_worker, memory_per_worker, instance_type, region, scale, harness_version,
       host, pid, boot_id, start_ticks, shard, config, machine, machine_class)
     VALUES (@id, @kind, @suite, @night, @startedAt, 'running', @target, @environmentName, @environmentFingerprint, @environment,
       @provider, @clusterShape, @workers, @threadsPerWorker, @memoryPerWorker, @instanceType, @region, @scale, @harnessVersion,
       @host, @pid, @bootId, @startTicks, @shard, @config, @machine, @machineClass)`,
  ).run({
    ...run,
    instanceType: run.instanceType ?? null,
    region: run.region ?? null,
    shard: run.shard ?? null,
    bootId: run.bootId ?? null,
    startTicks: run.startTicks ?? null,
    target: JSON.stringify(run.target),
    environment: JSON.stringify(run.environment),
    config: JSON.stringify(run.config),
    machine: run.machine === undefined ? null : JSON.stringify(run.machine),
    machineClass: run.machineClass ?? null,
  });
  for (const commit of run.commits) {
    upsertCommit(db, commit);
    preparedOnce(db, 'INSERT INTO run_commits (run_id, repo, sha) VALUES (?, ?, ?)').run(run.id, commit.repo, commit.sha);
  }
}

function upsertCommit(db: Db, commit: CommitInfo): void {
  preparedOnce(
    db,
    `INSERT INTO commits (repo, sha, parents, author_name, author_email, authored_at, committed_at, subject)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repo, sha) DO NOTHING`,
  ).run(commit.repo, commit.sha, commit.parents.join(' '), commit.authorName, commit.authorEmail, commit.authoredAt, commit.committedAt, commit.subject);
}

/** A measured repeat: its status, its values (when it measured any), the metrics it could not report and its samples. */
export function insertRepeat(db: Db, record: RepeatRecord): void {
  const measured = record.status === 'ok' || record.status === 'disturbed';
  preparedOnce(
    db,
    `INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at, error, disturbance, failure_class, failure_cause, metric_values)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    record.runId, record.workload, record.repeat, record.workloadVersion, record.status, record.startedAt, record.finishedAt, record.error ?? null,
    record.disturbance ?? null, record.failure?.class ?? null, record.failure?.cause ?? null, encodeRepeatValues(measured ? record.metrics : []),
  );
  const { runId, workload, repeat } = record;
  if (record.absent?.length) insertAbsentMetrics(db, record.absent.map((a) => ({ runId, workload, ...a })));
  const samples: unknown[] = [];
  for (const s of record.samples) samples.push(runId, workload, repeat, s.process, s.host, JSON.stringify(s.t), JSON.stringify(s.rss), JSON.stringify(s.cpu));
  insertSamples(db, samples);
  if (record.samples.length > 0) {
    preparedOnce(db, 'INSERT INTO repeat_timelines (run_id, workload, repeat, processes) VALUES (?, ?, ?, ?)').run(runId, workload, repeat, encodeRepeatTimelines(record.samples));
  }
}

// A repeat's samples are written by a multi-row statement, a statement call each rather than one per row.
const insertSamples = rowsInsert('INSERT INTO samples (run_id, workload, repeat, process, host, t, rss, cpu) VALUES', '(?, ?, ?, ?, ?, ?, ?, ?)');

/**
 * Kept apart from `repeats`, so that nothing that reads measurements ever sees a warm-up.
 * Numbered here, after the run's earlier warm-ups of the workload: the runner counts them per
 * cluster, and an A/B records one cluster per slot into the same run.
 */
export function insertWarmup(db: Db, record: RepeatRecord): void {
  preparedOnce(
    db,
    `INSERT INTO warmup_repeats (run_id, workload, warmup, workload_version, status, started_at, finished_at, error, disturbance, metrics)
     SELECT @runId, @workload, coalesce(max(warmup), 0) + 1, @workloadVersion, @status, @startedAt, @finishedAt, @error, @disturbance, @metrics
     FROM warmup_repeats WHERE run_id = @runId AND workload = @workload`,
  ).run({
    runId: record.runId, workload: record.workload, workloadVersion: record.workloadVersion, status: record.status, startedAt: record.startedAt,
    finishedAt: record.finishedAt, error: record.error ?? null, disturbance: record.disturbance ?? null, metrics: JSON.stringify(record.metrics),
  });
}

export function updateRunOutcome(db: Db, runId: string, outcome: RunOutcome): void {
  preparedOnce(
    db,
    `UPDATE runs SET status = ?, finished_at = ?, error = ?, cost_usd = ?, cluster_info = ?,
       instance_type = COALESCE(?, instance_type), region = COALESCE(?, region), machine_class = COALESCE(?, machine_class) WHERE id = ?`,
  ).run(
    outcome.status, outcome.finishedAt, outcome.error ?? null, outcome.costUsd ?? null, JSON.stringify(outcome.clusterInfo ?? {}), outcome.instanceType ?? null,
    outcome.region ?? null, outcome.machineClass ?? null, runId,
  );
}

/** Every repeat (and its values) of the matching runs, oldest first. */
export function selectResultRows(db: Db, filter: ResultFilter = {}): ResultRow[] {
  return Array.from(iterateResultRows(db, filter));
}

/**
 * The rows of {@link selectResultRows}, one at a time: a night's detection over 20,000 series
 * reads about two million of them, and holding them all at once ran out of memory. Each run's
 * facts are read once and shared by its rows; its repeats and values come from a narrow query
 * per run, so SQLite never sorts the whole selection and no run column is decoded per value.
 */
export function* iterateResultRows(db: Db, filter: ResultFilter = {}): Generator<ResultRow> {
  const repeatsOf = repeatRowsStatement(db, filter);
  const repeatParams = filter.workload === undefined ? [] : [filter.workload];
  for (const { run } of selectRuns(db, filter)) {
    const { runId, kind, suite, night, startedAt, environmentName, environmentFingerprint, provider, clusterShape, instanceType, machineClass, commits } = run;
    // Rows of one shape, spelled out: a spread of the run's facts into each of millions of rows
    // costs more than the read itself.
    for (const [workload, workloadVersion, repeat, status, storedValues, error, disturbance] of repeatsOf.iterate(runId, ...repeatParams) as Iterable<RepeatTuple>) {
      const rowOf = (metric: string | null, value: number | null, unit: string | null): ResultRow => {
        const row: ResultRow = {
          runId, kind, suite, night, startedAt, environmentName, environmentFingerprint, provider, clusterShape, instanceType,
          workload, workloadVersion, repeat, status, metric, value, unit, error, disturbance, commits,
        };
        if (machineClass !== undefined) row.machineClass = machineClass;
        return row;
      };
      const values = decodeRepeatValues(storedValues);
      // A repeat without values (failed, or none measured) is one row without a metric, unless
      // the read asks for one metric: then only the repeats holding it have rows.
      if (values.length === 0 && filter.metric === undefined) yield rowOf(null, null, null);
      for (const [metric, value, unit] of values) if (filter.metric === undefined || metric === filter.metric) yield rowOf(metric, value, unit);
    }
  }
}

/** A run {@link selectRuns} selects: its facts, and whether it may have cut workloads short. */
export interface SelectedRun {
  run: RunFacts;
  /** The run ended before its last repeat (killed, or its machine gone). */
  incomplete: boolean;
}

/** The runs the run fields of `filter` select, with their commits, oldest night first. */
export function* selectRuns(db: Db, filter: Pick<ResultFilter, 'kind' | 'suite' | 'sinceNight' | 'runIds'>): Generator<SelectedRun> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => (where.push(clause), params.push(...values));
  if (filter.kind) add('r.kind = ?', filter.kind);
  if (filter.suite) add('r.suite = ?', filter.suite);
  if (filter.sinceNight) add('r.night >= ?', filter.sinceNight);
  if (filter.runIds) add(`r.id IN (${filter.runIds.map(() => '?').join(',')})`, ...filter.runIds);
  const runs = db
    .prepare(
      `SELECT r.id AS runId, r.kind, r.suite, r.night, r.started_at AS startedAt, r.environment_name AS environmentName,
              r.environment_fingerprint AS environmentFingerprint, r.provider, r.cluster_shape AS clusterShape,
              r.instance_type AS instanceType, r.machine_class AS machineClass,
              r.status = 'incomplete' AS incomplete
       FROM runs r ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY r.night, r.started_at, r.id`,
    )
    .all(...params) as (Omit<RunFacts, 'commits' | 'instanceType' | 'machineClass'> & { instanceType: string | null; machineClass: string | null; incomplete: number })[];
  const commitsOf = preparedOnce(db, 'SELECT repo, sha FROM run_commits WHERE run_id = ?');
  for (const { instanceType, machineClass, incomplete, ...facts } of runs) {
    const commits: Record<string, string> = {};
    for (const { repo, sha } of commitsOf.all(facts.runId) as { repo: string; sha: string }[]) commits[repo] = sha;
    const run: RunFacts = { ...facts, commits, instanceType: instanceType ?? undefined };
    if (machineClass !== null) run.machineClass = machineClass;
    yield { run, incomplete: incomplete === 1 };
  }
}

type RepeatTuple = [string, string, number, ResultRow['status'], string, string | null, string | null];

/** One run's repeats with their stored values (repeat-values.ts), in workload and repeat order, as raw tuples ({@link RepeatTuple}). */
function repeatRowsStatement(db: Db, filter: ResultFilter): Database.Statement {
  const where = ['r.id = ?'];
  if (filter.workload !== undefined) where.push('p.workload = ?');
  if (filter.wholePointsOnly) where.push(`NOT (${cutShortCondition})`);
  return preparedOnce(
    db,
    `SELECT p.workload, p.workload_version, p.repeat, p.status, p.metric_values, p.error, p.disturbance
     FROM runs r JOIN repeats p ON p.run_id = r.id
     WHERE ${where.join(' AND ')}
     ORDER BY p.workload, p.repeat`,
  ).raw(true);
}
