/**
 * How a night's runs ended, as the history reads them back: each workload's outcome (the
 * broken-workload issues, src/detect/failures.ts) and each run's repeat counts and failures (the
 * job summary, src/job-summary/night-summary.ts). The history owns these shapes.
 *
 * @module
 */
import type { RepeatFailure, RunStatus } from './types.js';

/** How one workload did on one night. */
export interface NightOutcome {
  suite: string;
  workload: string;
  night: string;
  runId: string;
  /** repo -> sha */
  commits: Record<string, string>;
  passed: boolean;
  /** The tail of the error of a failed night. */
  error?: string;
}

/** One run of the night, with how its repeats ended. */
export interface SummaryRun {
  runId: string;
  suite: string;
  /** "i/N" for a shard of a split night. */
  shard?: string;
  status: RunStatus;
  clusterShape: string;
  environmentName: string;
  startedAt: string;
  finishedAt?: string;
  costUsd?: number;
  repeats: { ok: number; failed: number; timeout: number; disturbed: number };
}

/** A failed or timed-out repeat of the night. */
export interface SummaryFailure {
  suite: string;
  workload: string;
  repeat: number;
  status: 'failed' | 'timeout';
  error?: string;
  /** Whose failure it is (absent in a database older than failure classes). */
  failure?: RepeatFailure;
}
