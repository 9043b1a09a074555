/**
 * The shapes the history stores; the SQL lives in db/migrations. The history owns them: readers
 * (detection, pages, summaries) take them as they are or map them to their own views, and the
 * history imports nothing from its readers.
 */

export type RunKind = 'nightly' | 'run' | 'ab' | 'bisect';
export type RunStatus = 'running' | 'complete' | 'partial' | 'failed' | 'incomplete';
export type RepeatStatus = 'ok' | 'failed' | 'timeout' | 'disturbed';

export interface CommitInfo {
  repo: string;
  sha: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authoredAt: string;
  committedAt: string;
  subject: string;
}

/** What a run records about the machine that ran it. */
export interface MachineFacts {
  cpuModel: string;
  /** Logical CPUs the runner's machine offers. */
  cores: number;
  /** Total memory in bytes. */
  memory: number;
  /** The kernel's release, e.g. "6.1.0-18-amd64". */
  kernel: string;
  /** On a GitHub-hosted runner: its image (`ImageOS`, e.g. ubuntu22) and that image's version (`ImageVersion`). */
  runnerImage?: string;
  runnerImageVersion?: string;
  /** `RUNNER_NAME` and `RUNNER_ENVIRONMENT` (github-hosted or self-hosted). */
  runnerName?: string;
  runnerEnvironment?: string;
}

/** What makes two values comparable: never compare across these. */
export interface Comparability {
  environmentName: string;
  environmentFingerprint: string;
  provider: string;
  clusterShape: string;
  instanceType?: string;
}

export type { Direction } from '../direction.js';

/** Everything that must match for two values to be compared. */
export interface SeriesIdentity extends Comparability {
  suite: string;
  workload: string;
  workloadVersion: string;
  metric: string;
}

/** A night of a series, as an episode or an issue points at it. */
export interface NightRef {
  night: string;
  runId: string;
  /** repo -> sha */
  commits: Record<string, string>;
  /** The class of the machine that ran it, when known (src/detect/machine-class.ts). */
  machineClass?: string;
}

export interface NewRun extends Comparability {
  id: string;
  kind: RunKind;
  suite: string;
  night: string;
  startedAt: string;
  target: unknown;
  environment: unknown;
  commits: CommitInfo[];
  workers: number;
  threadsPerWorker: number;
  memoryPerWorker: number;
  region?: string;
  scale: number;
  harnessVersion: string;
  host: string;
  pid: number;
  /** With the pid, what tells the runner apart from a later process given the same pid. */
  bootId?: string;
  startTicks?: number;
  shard?: string;
  config: unknown;
  /**
   * What ran it (src/runner/machine.ts), and its class (src/detect/machine-class.ts). The runner
   * always records both; a history imported from elsewhere may know neither, and is judged as before.
   */
  machine?: MachineFacts;
  machineClass?: string;
}

/** The process that owns a running run or bisect, as recorded: boot and start time absent in rows older than migration 011. */
export interface ProcessOwner {
  pid: number | null;
  bootId: string | null;
  startTicks: number | null;
}

export interface MetricValue {
  metric: string;
  value: number;
  unit: string;
}

export interface ProcessSamples {
  process: string;
  host: string;
  t: number[];
  rss: number[];
  cpu: number[];
}

/**
 * Whose failure a failed repeat is: the code under test (the workload or the target raised, or
 * the workload passed its time limit) or the machine it ran on (the cluster did not start, the
 * runner was interrupted). Only code failures make a workload broken.
 */
export type FailureClass = 'code' | 'infrastructure';

export interface RepeatFailure {
  class: FailureClass;
  /** In a few words, e.g. "the cluster did not start". */
  cause: string;
}

export interface RepeatRecord {
  runId: string;
  workload: string;
  repeat: number;
  workloadVersion: string;
  status: RepeatStatus;
  startedAt: string;
  finishedAt: string;
  error?: string;
  /** Set on every failed or timed-out repeat. */
  failure?: RepeatFailure;
  disturbance?: string;
  /** Values of a failed or timed-out repeat are never stored: a failure is not a fast result. */
  metrics: MetricValue[];
  samples: ProcessSamples[];
  /** A warm-up repeat: stored in its own table, never a measurement, numbered by the store over the run (its `repeat` is not kept). */
  warmup?: boolean;
  /** Metrics the target's version cannot report, with why: stored once per run, never a value. */
  absent?: { metric: string; reason: string }[];
}

export interface RunOutcome {
  status: RunStatus;
  finishedAt: string;
  error?: string;
  costUsd?: number;
  clusterInfo?: unknown;
  /** Known only once a cluster started (EC2 falls back across types); part of comparability. */
  instanceType?: string;
  region?: string;
  /** The class of the machine that ran it, when the cluster told it (an EC2 instance type): replaces the runner's own. */
  machineClass?: string;
}

/** One measured value (or one failed repeat) with everything needed to place it in a series. */
export interface ResultRow extends Comparability {
  runId: string;
  kind: RunKind;
  suite: string;
  night: string;
  startedAt: string;
  workload: string;
  workloadVersion: string;
  repeat: number;
  status: RepeatStatus;
  metric: string | null;
  value: number | null;
  unit: string | null;
  error: string | null;
  disturbance: string | null;
  /** repo -> sha */
  commits: Record<string, string>;
  /** The class of the machine that ran it; absent in runs recorded before migration 018 (and in imports that do not say). */
  machineClass?: string;
}

/** A process group a run started on its machine, identified so that a recycled pid is never taken for it. */
export interface RunProcess {
  runId: string;
  name: string;
  host: string;
  pid: number;
  pgid: number;
  bootId: string;
  startTicks: number;
  startedAt: string;
}

/** What became of a recorded process: stopped by its runner, ended by a later start, or found gone. */
export type ProcessFate = 'stopped' | 'ended' | 'gone';
