import type { z } from 'zod';
import { NightbenchError } from '../errors.js';
import type { Log } from '../log.js';
import type { CommandResult, CommandSpec } from '../process/processes.js';

/** The size of a cluster: the one setting that scales a whole suite. */
export interface ClusterShape {
  workers: number;
  threadsPerWorker: number;
  memoryPerWorker: number;
}

/** A process the suite wants on the cluster, as argv with {placeholders}. */
export interface ProcessTemplate {
  command: string[];
  /** The address clients use, for the scheduler, e.g. tcp://{host}:{port}. */
  address?: string;
}

/** What a suite asks a provider to start: one scheduler and `shape.workers` workers. */
export interface ClusterRequest {
  shape: ClusterShape;
  scheduler: ProcessTemplate;
  worker: ProcessTemplate;
  /** Placeholder values the suite and target add ({python}, {suite_dir}, ...). */
  placeholders: Record<string, string>;
  /** Environment of every cluster process (target setup, the A/B environment's variables). */
  env: Record<string, string>;
  /** A scratch folder this cluster may use and leave behind. */
  workdir: string;
  startTimeoutSeconds: number;
  /** The provider's own options, already validated by its schema. */
  options: unknown;
  /** A label that ties the cluster's resources to one run (tags, namespace names). */
  runId: string;
  /**
   * Called with every process group the cluster starts on this machine (scheduler, workers,
   * client commands), so the run can record it and a later start can end what a dead run left.
   */
  onLaunch?: (process: LaunchedProcess) => void;
}

/** A process group leader a cluster started on this machine (its pid is its group's id). */
export interface LaunchedProcess {
  name: string;
  pid: number;
}

// A command run on a cluster host is run by process supervision, which owns its shapes.
export type { CommandResult, CommandSpec };

/** A cluster process whose process tree this machine can sample through /proc. */
export interface SampleTarget {
  name: string;
  host: string;
  pid: number;
}

/**
 * What a provider knows went wrong with its hosts rather than with the code: no capacity to start
 * or replace one, or one lost or reclaimed. A repeat that fails for it is the machine's failure.
 */
export type HostTrouble = 'capacity' | 'host-lost';

export class HostTroubleError extends NightbenchError {
  constructor(
    readonly trouble: HostTrouble,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('cluster', message, options);
    this.name = 'HostTroubleError';
  }
}

export interface Cluster {
  readonly provider: string;
  readonly schedulerAddress: string;
  /** Runs a client command (ready, reset, a workload) where it can reach the scheduler. */
  runCommand(spec: CommandSpec): Promise<CommandResult>;
  /** Processes to sample; empty where they run on other machines (EC2). */
  sampleTargets(): SampleTarget[];
  /** Processes that exited since the last call, e.g. "worker-2 exited with code 137". */
  takeExits(): string[];
  /**
   * Hosts lost or reclaimed since the cluster started or the last call (EC2: a host left
   * `running`, a spot interruption notice), looked at now; absent where hosts cannot be lost.
   */
  takeHostLosses?(): Promise<string[]>;
  /** Values the provider measures per repeat (network counters); called before and after. */
  counters?(): Promise<Record<string, number>>;
  /** Facts for the run record: start-up seconds, instance types, estimated cost. */
  info(): ClusterInfo;
  /** Stops everything it started; safe to call twice, never throws. */
  stop(): Promise<void>;
}

export interface ClusterInfo {
  startupSeconds: number;
  instanceType?: string;
  region?: string;
  costUsd?: number;
  [key: string]: unknown;
}

export interface ClusterProvider {
  readonly name: string;
  readonly description: string;
  /** Validates `cluster.options` for this provider; errors name the key at fault. */
  readonly optionsSchema: z.ZodType;
  /** Hosts and processes for one cluster, all ended by its stop(). */
  start(request: ClusterRequest, log: Log): Promise<Cluster>;
  /**
   * Hosts held for a whole run (instances, namespaces), where getting them costs more than
   * starting processes on them; the runner then starts each workload's cluster on the lease.
   */
  lease?(request: ClusterRequest, log: Log): Promise<HostLease>;
}

/** Hosts leased once per run: each start() puts a fresh scheduler and workers on them. */
export interface HostLease {
  /** The suite's processes, fresh, on the leased hosts; the cluster's stop() ends those processes only. */
  start(request: ClusterRequest, log: Log): Promise<Cluster>;
  /** Facts for the run record: launches, boot time, cost of the hosts. */
  info(): ClusterInfo;
  /** Gives every host back (terminates, deletes); safe to call twice, never throws. */
  release(): Promise<void>;
}

/** A cluster on a lease of its own, for a single start(): its stop() releases the hosts too. */
export async function startOnOwnLease(lease: HostLease, request: ClusterRequest, log: Log): Promise<Cluster> {
  let cluster: Cluster;
  try {
    cluster = await lease.start(request, log);
  } catch (error) {
    await lease.release();
    throw error;
  }
  return {
    ...cluster,
    info: () => ({ ...cluster.info(), ...lease.info() }),
    stop: async () => {
      await cluster.stop();
      await lease.release();
    },
  };
}

/** Replaces {name} in each argument; an unknown placeholder is a suite error, not a silent blank. */
export function fillTemplate(argv: readonly string[], values: Record<string, string>): string[] {
  return argv.map((arg) =>
    arg.replace(/\{([a-z_:.-]+)\}/gi, (match, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`unknown placeholder ${match} in "${arg}"; known: ${Object.keys(values).join(', ')}`);
      return value;
    }),
  );
}
