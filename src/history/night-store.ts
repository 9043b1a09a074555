/**
 * How nights ended, read for the pages, the job summary and the broken-workload issues
 * (report-queries.ts, summary-queries.ts, failure-queries.ts): reads only.
 *
 * @module
 */
import { guardSqlite } from './database.js';
import { selectNightOutcomes } from './failure-queries.js';
import type { NightOutcome, SummaryFailure, SummaryRun } from './night-rows.js';
import { readReportHistory, readRunWorkload, runsWithSamples, unfinishedRuns } from './report-queries.js';
import type { RepeatFacts, ReportHistory } from './report-rows.js';
import type { StoreHandle } from './store-handle.js';
import { nightSummaryFailures, nightSummaryRuns } from './summary-queries.js';

export class NightStore {
  constructor(private readonly handle: StoreHandle) {}

  /** Everything the site shows, read at once. */
  reportHistory(): ReportHistory {
    return readReportHistory(this.handle.db);
  }

  /** Which (run, workload) pairs have stored samples, as "runId\0workload". */
  runsWithSamples(): Set<string> {
    return runsWithSamples(this.handle.db);
  }

  /** Runs still being written: their drill-downs must be rebuilt next time, not kept. */
  unfinishedRuns(): Set<string> {
    return unfinishedRuns(this.handle.db);
  }

  /** The repeats of one workload in one run: status, error, metrics and samples. */
  runWorkload(runId: string, workload: string): RepeatFacts[] {
    return readRunWorkload(this.handle.db, runId, workload);
  }

  nightSummaryRuns(night: string): SummaryRun[] {
    return nightSummaryRuns(this.handle.db, night);
  }

  nightSummaryFailures(night: string): SummaryFailure[] {
    return nightSummaryFailures(this.handle.db, night);
  }

  /** How nightly runs and their workloads ended since `sinceNight` (broken-workload issues). */
  nightOutcomes(sinceNight: string): NightOutcome[] {
    return guardSqlite(this.handle.db, () => selectNightOutcomes(this.handle.db, sinceNight));
  }
}
