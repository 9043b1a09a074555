/**
 * The history as the site reads it (report-queries.ts): every nightly run, value, failure and
 * commit at once, and the repeats of one run's workload for its drill-down. The history owns
 * these shapes; src/report derives its page data from them.
 *
 * @module
 */
import type { CommitInfo, Comparability, FailureClass, MachineFacts, MetricValue, RepeatStatus } from './types.js';

/** One nightly run as the report needs it. */
export interface ReportRun extends Comparability {
  id: string;
  suite: string;
  night: string;
  startedAt: string;
  commits: { repo: string; sha: string }[];
  /** What ran it and its class, when recorded (db/migrations/018). */
  machine?: MachineFacts;
  machineClass?: string;
}

/** A run's workloads and values in their stored form (`encodeRunPoints`, walked by `visitRunPoints`). */
export interface RunPoints {
  runId: string;
  stored: Uint8Array;
}

/** A repeat that produced no values (failed or timed out), with the tail of its stderr. */
export interface FailedRepeat {
  runId: string;
  workload: string;
  repeat: number;
  status: Exclude<RepeatStatus, 'ok' | 'disturbed'>;
  error: string | null;
  /** Whose failure it is and why (null in a history older than failure classes). */
  failureClass: FailureClass | null;
  failureCause: string | null;
}

/** A workload a nightly run's version of the target could not run at all (db/migrations/011-backfill.sql). */
export interface UnsupportedWorkload {
  runId: string;
  workload: string;
  reason: string;
}

/**
 * A workload an incomplete run cut short (fewer measured repeats than the run was configured
 * for): detection never judges it (`wholePointsOnly`), so the pages show it as no point.
 */
export interface CutShortWorkload {
  runId: string;
  workload: string;
  measured: number;
  configured: number;
}

/** Everything the pages show, read from the history once. */
export interface ReportHistory {
  /** Nightly runs, oldest first. */
  runs: ReportRun[];
  /**
   * Each run's workloads and values in their stored form (`encodeRunPoints`), the runs in `runs`'
   * order: the pages take a workload's variants in the order its values come. As stored, not as a
   * tuple per run, workload and metric: 600,000 of them at 20,000 series of 31 nights were made
   * only to be copied and let go.
   */
  points: RunPoints[];
  failures: FailedRepeat[];
  commits: CommitInfo[];
  unsupported?: UnsupportedWorkload[];
  cutShort?: CutShortWorkload[];
}

/** One repeat of a run's workload, with everything its drill-down shows. */
export interface RepeatFacts {
  repeat: number;
  status: RepeatStatus;
  error: string | null;
  metrics: MetricValue[];
  /**
   * Its processes' samples as the drill-down charts them: the JSON of a `ProcessTimeline` array, in
   * the drill-down's order (sample-timelines.ts), as UTF-8 bytes: the site writes them as they
   * are, and a night's (76 MB at 5,000 workloads) decoded into strings only to be encoded again
   * cost the build about half a second.
   */
  timelines: Buffer;
}
