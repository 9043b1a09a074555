/**
 * The nightly as one pipeline: record every suite (target, clusters, history), then, unless
 * interrupted or told not to, detection and issues. It talks to the rest through narrow ports,
 * so a test can drive it with fakes; `runNight` (pipeline.ts) binds the real ones, and the
 * command maps the outcome to an exit code.
 *
 * @module
 */
import type { LoadedConfig } from '../config/load.js';
import type { NightbenchError } from '../errors.js';
import type { PublishResult } from '../issues/publish.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { executeRuns, type ExecuteOptions, type RunReport } from '../runner/execute.js';
import { describePublishResult, detectAndPublish, publishFailure } from './issues.js';

export interface NightlyPorts {
  /** Runs and records every selected suite of the night. */
  record(): Promise<RunReport[]>;
  /** Detection of the night, then its issues. */
  detectAndPublish(): Promise<PublishResult>;
  /** True once the user asked to stop (a signal): the night is then not judged. */
  interrupted(): boolean;
  log: Log;
}

export interface NightlyOptions {
  /** False: record only (--no-detect). */
  detect: boolean;
}

export interface NightlyOutcome {
  reports: RunReport[];
  interrupted: boolean;
  /** Undefined when detection was skipped. */
  published?: PublishResult;
  /** Set when GitHub kept failing: the issue text went to files and the regressions stay recorded. */
  publishFailure?: NightbenchError;
}

export async function runNightly(ports: NightlyPorts, options: NightlyOptions): Promise<NightlyOutcome> {
  const reports = await ports.record();
  const interrupted = ports.interrupted();
  if (!options.detect || interrupted) return { reports, interrupted };
  // A GitHub failure still returns the runs; its text is in reports/issues/.
  const published = await ports.detectAndPublish();
  ports.log.info(describePublishResult(published, false));
  const failure = publishFailure(published);
  if (failure) ports.log.warn(failure.message);
  return { reports, interrupted, published, ...(failure ? { publishFailure: failure } : {}) };
}

/** The real ports: the runner and detection over `store`, for the night of `execute.night` (default: today). */
export function nightlyPorts(loaded: LoadedConfig, store: HistoryStore, log: Log, execute: Omit<ExecuteOptions, 'kind'>): NightlyPorts {
  return {
    record: () => executeRuns(loaded, store, log, { ...execute, kind: 'nightly' }),
    detectAndPublish: () => detectAndPublish(loaded, store, log, { night: execute.night }),
    interrupted: () => execute.signal?.aborted ?? false,
    log,
  };
}
