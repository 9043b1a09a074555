/**
 * The runs, their repeats, values and samples, as the runner, an import or a backfill write them,
 * and the result rows detection, tuning and export read back (run-queries.ts,
 * backfill-queries.ts, import-queries.ts, regression-queries.ts for the declared directions).
 *
 * @module
 */
import { markRunIncomplete } from './abandoned-queries.js';
import { insertUnsupportedWorkload, nightsRecorded, type UnsupportedWorkload } from './backfill-queries.js';
import { NightbenchError } from '../errors.js';
import { describeSqliteError } from './database.js';
import { importWriter, type ImportRunRow, type ImportWriteCounts } from './import-queries.js';
import { latestNightlyNight, metricDirections, nightlyNightsBack, recordMetricDirections, type DeclaredDirection } from './regression-queries.js';
import { iterateWorkloadNights, type WorkloadNightFilter } from './run-points-queries.js';
import { insertRepeat, insertRun, insertWarmup, selectResultRows, updateRunOutcome, type ResultFilter } from './run-queries.js';
import type { StoreHandle } from './store-handle.js';
import type { NewRun, ProcessOwner, RepeatRecord, ResultRow, RunOutcome } from './types.js';
import type { WorkloadNight } from './workload-nights.js';

export class RunStore {
  private writeImportedRuns?: (rows: readonly ImportRunRow[]) => ImportWriteCounts;

  constructor(private readonly handle: StoreHandle) {}

  /** Fails early, before any cluster starts, when another writer holds the database. */
  assertWritable(): void {
    // An empty IMMEDIATE transaction takes the write lock and gives it back at once; not retried,
    // so a run that cannot write says so before it starts anything.
    try {
      this.handle.db.transaction(() => undefined).immediate();
    } catch (error) {
      throw describeSqliteError(error, this.handle.file);
    }
  }

  beginRun(run: NewRun): void {
    this.handle.write(() => insertRun(this.handle.db, run));
  }

  recordRepeat(record: RepeatRecord): void {
    this.handle.write(() => (record.warmup ? insertWarmup : insertRepeat)(this.handle.db, record));
  }

  finishRun(runId: string, outcome: RunOutcome): void {
    this.handle.write(() => updateRunOutcome(this.handle.db, runId, outcome));
  }

  /** Several writes as one transaction: a bulk import commits once instead of once per run. */
  inOneTransaction<T>(body: () => T): T {
    return this.handle.write(body);
  }

  /**
   * Runs left 'running' by a process of this host that no longer exists crashed mid-run: what
   * they recorded stays, and they are marked incomplete so nobody mistakes them for whole nights.
   */
  markAbandonedRuns(isAlive: (owner: ProcessOwner) => boolean): string[] {
    return this.handle.markAbandoned('runs', isAlive, markRunIncomplete);
  }

  /** Every repeat (and its values) of the matching runs, oldest first; `wholePointsOnly` leaves out workloads an incomplete run cut short. */
  resultRows(filter: ResultFilter = {}): ResultRow[] {
    return selectResultRows(this.handle.db, filter);
  }

  /**
   * Each matching run's workloads as their series read them (workload-nights.ts), oldest night
   * first: what detection groups, read from one stored row per run (run-points-queries.ts), which
   * the first read of a run writes. Nothing else may use the store until it is done.
   */
  streamWorkloadNights(filter: WorkloadNightFilter = {}): Iterable<WorkloadNight> {
    return iterateWorkloadNights(this.handle.db, filter);
  }

  /** A workload the target's version cannot run: not a failed repeat, no value. */
  recordUnsupported(record: UnsupportedWorkload): void {
    this.handle.write(() => insertUnsupportedWorkload(this.handle.db, record));
  }

  /** Runs brought from another tool, as one transaction; what was already there is left as it is (import-queries.ts). */
  importRuns(rows: readonly ImportRunRow[]): ImportWriteCounts {
    const writeRuns = (this.writeImportedRuns ??= importWriter(this.handle.db));
    return this.handle.write(() => writeRuns(rows));
  }

  /** Nights of from..to on which every one of `suites` has a nightly run that ran to its end. */
  nightsRecorded(suites: readonly string[], from: string, to: string): string[] {
    return nightsRecorded(this.handle.db, suites, from, to);
  }

  /**
   * Refuses a suite filter the history has no nightly run of, while it has others: a mistyped
   * `--suite` would read nothing and report all clear (no regression, an empty export).
   */
  assertSuiteRecorded(suite: string | undefined): void {
    if (suite === undefined || this.latestNightlyNight(suite) !== undefined || this.latestNightlyNight() === undefined) return;
    throw new NightbenchError('usage', `--suite ${suite}: the history has no nightly run of this suite`);
  }

  /** The latest night with a nightly run (of `suite`, if given). */
  latestNightlyNight(suite?: string): string | undefined {
    return latestNightlyNight(this.handle.db, suite);
  }

  /** The oldest of the `count` latest nightly nights before `night`; undefined when there are fewer (regression-queries.ts). */
  nightlyNightsBack(night: string, count: number, suite?: string): string | undefined {
    return nightlyNightsBack(this.handle.db, night, count, suite);
  }

  /** Stores the metric directions a suite's listing declares. */
  recordMetricDirections(directions: readonly DeclaredDirection[]): void {
    recordMetricDirections(this.handle.db, directions);
  }

  /** Every metric direction the suites declared. */
  metricDirections(): DeclaredDirection[] {
    return metricDirections(this.handle.db);
  }
}
