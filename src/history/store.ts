/**
 * Where the SQL lives: only in src/history. Convention, for every new read or write:
 * - one module per concern, `src/history/<concern>-queries.ts` (ab-queries.ts, report-queries.ts,
 *   summary-queries.ts, maintenance-queries.ts, ...), exporting functions that take `db: Db` first
 *   and return typed rows;
 * - HistoryStore exposes them as typed methods (one line each), and `files.ts` does the same for
 *   whole-file operations (migrate, merge, prune, copy) on a path;
 * - outside src/history nothing imports better-sqlite3, `Db` or `database.ts`: callers hold a
 *   HistoryStore (or a path) and never a database handle.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import type { SummaryFailure, SummaryRun } from '../job-summary/night-summary.js';
import { NightbenchError } from '../errors.js';
import type { RepeatFacts } from '../report/drilldown.js';
import type { ReportHistory } from '../report/types.js';
import { abTestRuns, abTestsMatching, attachRunToAbTest, finishAbTest, insertAbTest, latestAbTests, type NewAbTest, type StoredAbTest } from './ab-queries.js';
import { defaultBusyRetry, retryWhileBusy, type BusyRetryPolicy } from './busy-retry.js';
import type { Db } from './database.js';
import { describeSqliteError, guardSqlite } from './database.js';
import type { NightOutcome } from '../detect/failures.js';
import { selectNightOutcomes } from './failure-queries.js';
import { finishBisect, insertBisect, linkRunToBisect, selectBisects, type BisectOutcomeRecord, type BisectRecord, type NewBisect } from './bisect-queries.js';
import {
  applyEpisodeChanges, latestNightlyNight, loadEpisodes, markEpisodesAccepted, markEpisodesUnconfirmed, metricDirections, recordMetricDirections, setEpisodeIssue,
  type DeclaredDirection, type EpisodeFilter,
} from './regression-queries.js';
import type { Episode, EpisodeChange } from '../detect/episodes.js';
import { insertAbsentMetrics, insertUnsupportedWorkload, markEpisodesFound, nightsRecorded, type OfflineJudge, unsupportedNightlyWorkloads, type UnsupportedWorkload } from './backfill-queries.js';
import { markWorkIncomplete, runningWorkOfHost, type TrackedWork } from './abandoned-queries.js';
import { importWriter, type ImportRunRow, type ImportWriteCounts } from './import-queries.js';
import { machineNights, recordMachineNight } from './machine-queries.js';
import type { MachineNight } from '../detect/machine-night.js';
import { insertRunProcess, settleProcess, settleRunProcesses, unsettledProcessesOfEndedRuns } from './process-queries.js';
import { readReportHistory, readRunWorkload, runsWithSamples, unfinishedRuns } from './report-queries.js';
import { nightSummaryFailures, nightSummaryRuns } from './summary-queries.js';
import { cutShortCondition } from './whole-points-queries.js';
import { falseAlarmEpisodes, recordedFixes, recordTriageEvent, recordTriageStep, triageEvents, triageSteps, type FalseAlarm, type TriageEvent, type TriageStep } from './triage-queries.js';
import type { CommitInfo, NewRun, ProcessFate, ProcessOwner, RepeatRecord, ResultRow, RunKind, RunOutcome, RunProcess, RunStatus } from './types.js';

/**
 * Writes and reads the history. Each write is one transaction, so a crash leaves what was
 * recorded before it intact; a run still marked running after its process died is incomplete.
 */
export class HistoryStore {
  private readonly statements = new Map<string, Database.Statement>();
  private writeImportedRun?: (row: ImportRunRow) => ImportWriteCounts;

  constructor(
    private readonly db: Db,
    readonly file: string,
    private readonly busyRetry: BusyRetryPolicy = defaultBusyRetry,
  ) {}

  /** Prepared once per store: the runner writes thousands of rows a night through a few statements. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Fails early, before any cluster starts, when another writer holds the database. */
  assertWritable(): void {
    // An empty IMMEDIATE transaction takes the write lock and gives it back at once; not retried,
    // so a run that cannot write says so before it starts anything.
    try {
      this.db.transaction(() => undefined).immediate();
    } catch (error) {
      throw describeSqliteError(error, this.file);
    }
  }

  beginRun(run: NewRun): void {
    this.write(() => {
      this
        .statement(
          `INSERT INTO runs (id, kind, suite, night, started_at, status, target, environment_name, environment_fingerprint, environment,
             provider, cluster_shape, workers, threads_per_worker, memory_per_worker, instance_type, region, scale, harness_version,
             host, pid, boot_id, start_ticks, shard, config, machine, machine_class)
           VALUES (@id, @kind, @suite, @night, @startedAt, 'running', @target, @environmentName, @environmentFingerprint, @environment,
             @provider, @clusterShape, @workers, @threadsPerWorker, @memoryPerWorker, @instanceType, @region, @scale, @harnessVersion,
             @host, @pid, @bootId, @startTicks, @shard, @config, @machine, @machineClass)`,
        )
        .run({
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
        this.upsertCommit(commit);
        this.statement('INSERT INTO run_commits (run_id, repo, sha) VALUES (?, ?, ?)').run(run.id, commit.repo, commit.sha);
      }
    });
  }

  recordRepeat(record: RepeatRecord): void {
    if (record.warmup) return this.recordWarmup(record);
    this.write(() => {
      this
        .statement(
          `INSERT INTO repeats (run_id, workload, repeat, workload_version, status, started_at, finished_at, error, disturbance, failure_class, failure_cause)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(record.runId, record.workload, record.repeat, record.workloadVersion, record.status, record.startedAt, record.finishedAt, record.error ?? null, record.disturbance ?? null, record.failure?.class ?? null, record.failure?.cause ?? null);
      if (record.status === 'ok' || record.status === 'disturbed') {
        const insert = this.statement('INSERT INTO results (run_id, workload, repeat, metric, value, unit) VALUES (?, ?, ?, ?, ?, ?)');
        for (const m of record.metrics) insert.run(record.runId, record.workload, record.repeat, m.metric, m.value, m.unit);
      }
      if (record.absent?.length) insertAbsentMetrics(this.db, record.absent.map((a) => ({ runId: record.runId, workload: record.workload, ...a })));
      const sample = this.statement('INSERT INTO samples (run_id, workload, repeat, process, host, t, rss, cpu) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (const s of record.samples) {
        sample.run(record.runId, record.workload, record.repeat, s.process, s.host, JSON.stringify(s.t), JSON.stringify(s.rss), JSON.stringify(s.cpu));
      }
    });
  }

  /**
   * Kept apart from `repeats`, so that nothing that reads measurements ever sees a warm-up.
   * Numbered here, after the run's earlier warm-ups of the workload: the runner counts them per
   * cluster, and an A/B records one cluster per slot into the same run.
   */
  private recordWarmup(record: RepeatRecord): void {
    this.write(() =>
      this
        .statement(
          `INSERT INTO warmup_repeats (run_id, workload, warmup, workload_version, status, started_at, finished_at, error, disturbance, metrics)
           SELECT @runId, @workload, coalesce(max(warmup), 0) + 1, @workloadVersion, @status, @startedAt, @finishedAt, @error, @disturbance, @metrics
           FROM warmup_repeats WHERE run_id = @runId AND workload = @workload`,
        )
        .run({
          runId: record.runId, workload: record.workload, workloadVersion: record.workloadVersion, status: record.status, startedAt: record.startedAt,
          finishedAt: record.finishedAt, error: record.error ?? null, disturbance: record.disturbance ?? null, metrics: JSON.stringify(record.metrics),
        }),
    );
  }

  finishRun(runId: string, outcome: RunOutcome): void {
    this.write(() =>
      this
        .statement(
          `UPDATE runs SET status = ?, finished_at = ?, error = ?, cost_usd = ?, cluster_info = ?,
             instance_type = COALESCE(?, instance_type), region = COALESCE(?, region), machine_class = COALESCE(?, machine_class) WHERE id = ?`,
        )
        .run(
          outcome.status, outcome.finishedAt, outcome.error ?? null, outcome.costUsd ?? null, JSON.stringify(outcome.clusterInfo ?? {}), outcome.instanceType ?? null,
          outcome.region ?? null, outcome.machineClass ?? null, runId,
        ),
    );
  }

  upsertCommit(commit: CommitInfo): void {
    this
      .statement(
        `INSERT INTO commits (repo, sha, parents, author_name, author_email, authored_at, committed_at, subject)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repo, sha) DO NOTHING`,
      )
      .run(commit.repo, commit.sha, commit.parents.join(' '), commit.authorName, commit.authorEmail, commit.authoredAt, commit.committedAt, commit.subject);
  }

  /** Several writes as one transaction: a bulk import commits once instead of once per run. */
  inOneTransaction<T>(body: () => T): T {
    return this.write(body);
  }

  /**
   * Runs left 'running' by a process of this host that no longer exists crashed mid-run: what
   * they recorded stays, and they are marked incomplete so nobody mistakes them for whole nights.
   * `isAlive` judges the recorded process (pid, boot, start time), never a pid alone.
   */
  markAbandonedRuns(isAlive: (owner: ProcessOwner) => boolean): string[] {
    const abandoned = runningWorkOfHost(this.db, 'runs', hostname()).filter((run) => !isAlive(run)).map((run) => run.id);
    if (abandoned.length > 0) {
      this.write(() => {
        const update = this.db.prepare("UPDATE runs SET status = 'incomplete', error = 'the run stopped before it finished' WHERE id = ?");
        for (const id of abandoned) update.run(id);
      });
    }
    return abandoned;
  }

  /** Every repeat (and its values) of the matching runs, oldest first; `wholePointsOnly` leaves out workloads an incomplete run cut short. */
  resultRows(filter: { kind?: RunKind; suite?: string; runIds?: string[]; sinceNight?: string; workload?: string; metric?: string; wholePointsOnly?: boolean } = {}): ResultRow[] {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => (where.push(clause), params.push(...values));
    if (filter.kind) add('r.kind = ?', filter.kind);
    if (filter.suite) add('r.suite = ?', filter.suite);
    if (filter.sinceNight) add('r.night >= ?', filter.sinceNight);
    if (filter.runIds) add(`r.id IN (${filter.runIds.map(() => '?').join(',')})`, ...filter.runIds);
    if (filter.workload) add('p.workload = ?', filter.workload);
    if (filter.metric) add('v.metric = ?', filter.metric);
    if (filter.wholePointsOnly) add(`NOT (${cutShortCondition})`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.db
      .prepare(
        `SELECT r.id AS runId, r.kind, r.suite, r.night, r.started_at AS startedAt, r.environment_name AS environmentName,
                r.environment_fingerprint AS environmentFingerprint, r.provider, r.cluster_shape AS clusterShape,
                r.instance_type AS instanceType, r.machine_class AS machineClass, p.workload, p.workload_version AS workloadVersion, p.repeat, p.status,
                v.metric, v.value, v.unit, p.error, p.disturbance
         FROM runs r JOIN repeats p ON p.run_id = r.id LEFT JOIN results v ON v.run_id = p.run_id AND v.workload = p.workload AND v.repeat = p.repeat
         ${clause}
         ORDER BY r.night, r.started_at, p.workload, p.repeat, v.metric`,
      )
      .all(...params) as (Omit<ResultRow, 'commits' | 'instanceType' | 'machineClass'> & { instanceType: string | null; machineClass: string | null })[];
    // Commits per run in one pass: a per-row subquery would repeat the lookup for every value.
    const commitsByRun = new Map<string, Record<string, string>>();
    for (const row of rows) commitsByRun.set(row.runId, {});
    const lookup = this.statement('SELECT repo, sha FROM run_commits WHERE run_id = ?');
    for (const [runId, commits] of commitsByRun) {
      for (const { repo, sha } of lookup.all(runId) as { repo: string; sha: string }[]) commits[repo] = sha;
    }
    return rows.map(({ machineClass, ...row }) => ({
      ...row, instanceType: row.instanceType ?? undefined, commits: commitsByRun.get(row.runId)!, ...(machineClass === null ? {} : { machineClass }),
    }));
  }

  beginBisect(bisect: NewBisect): void {
    this.write(() => insertBisect(this.db, bisect));
  }

  /** Marks a run (of kind 'bisect') as one of this bisect's. */
  linkRunToBisect(runId: string, bisectId: string): void {
    this.write(() => linkRunToBisect(this.db, runId, bisectId));
  }

  finishBisect(id: string, outcome: BisectOutcomeRecord): void {
    this.write(() => finishBisect(this.db, id, outcome));
  }

  bisects(filter: { suite?: string; workload?: string } = {}): BisectRecord[] {
    return guardSqlite(this.db, () => selectBisects(this.db, filter));
  }

  /** How nightly runs and their workloads ended since `sinceNight` (broken-workload issues). */
  nightOutcomes(sinceNight: string): NightOutcome[] {
    return guardSqlite(this.db, () => selectNightOutcomes(this.db, sinceNight));
  }

  /** Detection's episodes matching the filter, oldest first (see `regression-queries.ts`). */
  episodes(filter: EpisodeFilter = {}): Episode[] {
    return loadEpisodes(this.db, filter);
  }

  /** Carries out a plan of episode changes in one transaction; returns the ids of the episodes it opened. */
  applyEpisodeChanges(changes: readonly EpisodeChange[]): number[] {
    return applyEpisodeChanges(this.db, changes);
  }

  /** Records the GitHub issue that reports these episodes; returns how many rows changed. */
  setEpisodeIssue(episodeIds: readonly number[], issueNumber: number): number {
    return setEpisodeIssue(this.db, episodeIds, issueNumber);
  }

  /** A maintainer accepted the new level of these episodes; returns how many rows changed. */
  markEpisodesAccepted(episodeIds: readonly number[]): number {
    return markEpisodesAccepted(this.db, episodeIds);
  }

  // Backfills and past versions of the target (backfill-queries.ts).

  /** Nights of from..to on which every one of `suites` has a nightly run that ran to its end. */
  nightsRecorded(suites: readonly string[], from: string, to: string): string[] {
    return nightsRecorded(this.db, suites, from, to);
  }

  /** Marks episodes that judging past nights again found (a backfill's or a replay's). */
  markEpisodesFound(episodeIds: readonly number[], by: OfflineJudge): number {
    return markEpisodesFound(this.db, episodeIds, by);
  }

  /** A workload the target's version cannot run: not a failed repeat, no value. */
  recordUnsupported(record: UnsupportedWorkload): void {
    this.write(() => insertUnsupportedWorkload(this.db, record));
  }

  unsupportedNightlyWorkloads(suite?: string) {
    return unsupportedNightlyWorkloads(this.db, suite);
  }

  /** A confirmation rerun did not reproduce these episodes; returns how many rows changed. */
  markEpisodesUnconfirmed(episodeIds: readonly number[]): number {
    return markEpisodesUnconfirmed(this.db, episodeIds);
  }

  /** The latest night with a nightly run (of `suite`, if given). */
  latestNightlyNight(suite?: string): string | undefined {
    return latestNightlyNight(this.db, suite);
  }

  /** Runs brought from another tool, as one transaction; what was already there is left as it is (import-queries.ts). */
  importRuns(rows: readonly ImportRunRow[]): ImportWriteCounts {
    const writeRun = (this.writeImportedRun ??= importWriter(this.db));
    return this.write(() => {
      const counts = { newRuns: 0, newValues: 0 };
      for (const row of rows) {
        const written = writeRun(row);
        counts.newRuns += written.newRuns;
        counts.newValues += written.newValues;
      }
      return counts;
    });
  }

  /** Stores the metric directions a suite's listing declares. */
  recordMetricDirections(directions: readonly DeclaredDirection[]): void {
    recordMetricDirections(this.db, directions);
  }

  /** Every metric direction the suites declared. */
  metricDirections(): DeclaredDirection[] {
    return metricDirections(this.db);
  }

  // The A/B tests (ab-queries.ts). `T` is the A/B module's record type: the history stores its config and schedule whole.

  createAbTest<T extends StoredAbTest>(test: NewAbTest<T>, owner: { bootId?: string; startTicks?: number } = {}): void {
    insertAbTest(this.db, test, owner);
  }

  attachRunToAbTest(runId: string, testId: string, group: string): void {
    attachRunToAbTest(this.db, runId, testId, group);
  }

  finishAbTest(id: string, status: RunStatus, finishedAt: string): void {
    finishAbTest(this.db, id, status, finishedAt);
  }

  /** A test by its id or an unambiguous prefix of it (as printed: the first 8 characters do). */
  abTest<T extends StoredAbTest>(idOrPrefix: string): T {
    const found = abTestsMatching(this.db, idOrPrefix);
    const exact = found.find((test) => test.id === idOrPrefix);
    if (!exact && found.length > 1) throw new NightbenchError('usage', `A/B id "${idOrPrefix}" is ambiguous: ${found.map((t) => t.id).join(', ')}`);
    const test = exact ?? found[0];
    if (!test) throw new NightbenchError('usage', `no A/B test "${idOrPrefix}" in ${this.file}; \`nightbench ab list\` shows them`);
    return test as T;
  }

  /** Newest first. */
  abTests<T extends StoredAbTest>(limit = 20): T[] {
    return latestAbTests(this.db, limit) as T[];
  }

  /** Every repeat of the test's runs, each with the group its run belongs to. */
  abTestRows(id: string): (ResultRow & { group: string })[] {
    const runs = abTestRuns(this.db, id);
    if (runs.length === 0) return [];
    const groupOf = new Map(runs.map((r) => [r.id, r.group]));
    return this.resultRows({ runIds: runs.map((r) => r.id) }).map((row) => ({ ...row, group: groupOf.get(row.runId)! }));
  }

  // The site's reads (report-queries.ts).

  reportHistory(): ReportHistory {
    return readReportHistory(this.db);
  }

  /** Which (run, workload) pairs have stored samples, as "runId\0workload". */
  runsWithSamples(): Set<string> {
    return runsWithSamples(this.db);
  }

  /** Runs still being written: their drill-downs must be rebuilt next time, not kept. */
  unfinishedRuns(): Set<string> {
    return unfinishedRuns(this.db);
  }

  /** The repeats of one workload in one run: status, error, metrics and samples. */
  runWorkload(runId: string, workload: string): RepeatFacts[] {
    return readRunWorkload(this.db, runId, workload);
  }

  // The job summary's reads (summary-queries.ts).

  nightSummaryRuns(night: string): SummaryRun[] {
    return nightSummaryRuns(this.db, night);
  }

  nightSummaryFailures(night: string): SummaryFailure[] {
    return nightSummaryFailures(this.db, night);
  }

  // Triage commands given on issues (triage-queries.ts).

  recordTriageEvent(event: TriageEvent): boolean {
    return recordTriageEvent(this.db, event);
  }

  triageEvents(filter: { issueNumber?: number } = {}): TriageEvent[] {
    return triageEvents(this.db, filter);
  }

  recordTriageStep(eventKey: string, step: TriageStep, at: string): void {
    recordTriageStep(this.db, eventKey, step, at);
  }

  triageSteps(eventKey: string): Set<TriageStep> {
    return triageSteps(this.db, eventKey);
  }

  recordedFixes(): Map<number, string> {
    return recordedFixes(this.db);
  }

  falseAlarmEpisodes(): FalseAlarm[] {
    return falseAlarmEpisodes(this.db);
  }

  // Nights the machine, not the code, moved (machine-queries.ts).

  recordMachineNight(finding: MachineNight): void {
    this.write(() => recordMachineNight(this.db, finding));
  }

  machineNights(filter: { sinceNight?: string; machineOnly?: boolean } = {}): MachineNight[] {
    return machineNights(this.db, filter);
  }

  // Work a runner that died left behind (abandoned-queries.ts, process-queries.ts).

  /** A/B tests left 'running' by a process of this host that no longer exists: marked incomplete. */
  markAbandonedAbTests(isAlive: (owner: ProcessOwner) => boolean): string[] {
    return this.markAbandoned('ab_tests', isAlive);
  }

  /** Bisects left 'running' by a process of this host that no longer exists: marked incomplete. */
  markAbandonedBisects(isAlive: (owner: ProcessOwner) => boolean): string[] {
    return this.markAbandoned('bisects', isAlive);
  }

  private markAbandoned(table: TrackedWork, isAlive: (owner: ProcessOwner) => boolean): string[] {
    const abandoned = runningWorkOfHost(this.db, table, hostname()).filter((work) => !isAlive(work)).map((work) => work.id);
    if (abandoned.length > 0) this.write(() => abandoned.forEach((id) => markWorkIncomplete(this.db, table, id)));
    return abandoned;
  }

  /** A process group a run started on this machine (src/runner/leftovers.ts). */
  recordProcess(process: RunProcess): void {
    this.write(() => insertRunProcess(this.db, process));
  }

  /** Every process of the run not settled yet gets `fate`: its runner stopped them all. */
  settleRunProcesses(runId: string, fate: ProcessFate): void {
    this.write(() => settleRunProcesses(this.db, runId, fate));
  }

  settleProcess(process: RunProcess, fate: ProcessFate): void {
    this.write(() => settleProcess(this.db, process, fate));
  }

  /** Processes of this host whose run ended (or was marked dead) without stopping them. */
  unsettledProcesses(): RunProcess[] {
    return unsettledProcessesOfEndedRuns(this.db, hostname());
  }

  close(): void {
    this.db.close();
  }

  /** One transaction; another writer's lock is waited out (busy-retry.ts), so a repeat is never lost to it. */
  private write<T>(body: () => T): T {
    try {
      return retryWhileBusy(() => this.db.transaction(body).immediate(), this.busyRetry);
    } catch (error) {
      throw describeSqliteError(error, this.file);
    }
  }
}
