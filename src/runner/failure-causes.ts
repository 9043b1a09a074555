/**
 * Whose failure a failed repeat is, and why: the code under test (a broken workload, a bisect)
 * or the machine it ran on (retried on a fresh cluster, never an issue). Pure: the runner tells
 * what happened, this names it.
 *
 * @module
 */
import { HostTroubleError } from '../cluster/types.js';
import type { RepeatFailure } from '../history/types.js';

export const failureCauses = {
  cluster: { class: 'infrastructure', cause: 'the cluster did not start or could not be reset' },
  capacity: { class: 'infrastructure', cause: 'no capacity for a host' },
  hostLost: { class: 'infrastructure', cause: 'a host was lost or reclaimed' },
  interrupted: { class: 'infrastructure', cause: 'the runner was interrupted' },
  timeLimit: { class: 'code', cause: 'the workload passed its time limit' },
  raised: { class: 'code', cause: 'the workload failed' },
  noMetrics: { class: 'code', cause: 'the workload wrote no valid metrics' },
} as const satisfies Record<string, RepeatFailure>;

/** Why a cluster could not be had or reset: what the provider knows of its hosts, else the cluster's own failure. */
export function clusterFailure(error: unknown): RepeatFailure {
  if (error instanceof HostTroubleError) return error.trouble === 'capacity' ? failureCauses.capacity : failureCauses.hostLost;
  return failureCauses.cluster;
}

/** How a repeat's command ended, as far as whose failure it is goes. */
export interface RepeatEnding {
  aborted: boolean;
  timedOut: boolean;
  exitCode: number | null;
  /** Hosts of the cluster lost or reclaimed while the repeat ran (EC2: left running, a spot notice). */
  hostsLost: number;
}

/**
 * The failure of a repeat that did not succeed. A host lost under a failing or hanging repeat is
 * the machine's doing, whatever the workload then raised; without one, a hang or a raise is the code's.
 */
export function repeatFailure(ending: RepeatEnding): RepeatFailure | undefined {
  if (ending.aborted) return failureCauses.interrupted;
  const failed = ending.timedOut || ending.exitCode !== 0;
  if (!failed) return undefined;
  if (ending.hostsLost > 0) return failureCauses.hostLost;
  return ending.timedOut ? failureCauses.timeLimit : failureCauses.raised;
}
