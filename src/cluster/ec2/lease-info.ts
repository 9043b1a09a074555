/**
 * What a lease of EC2 hosts reports about itself: its hosts' boot, time held and estimated cost.
 * Pure: the hosts as the provider tracks them, and `now` for hosts still held.
 *
 * @module
 */
import type { ClusterInfo } from '../types.js';
import type { AgentHost } from './agent.js';
import type { Ec2Options } from './options.js';
import { estimateCostUsd, type LaunchedGroup, type Role } from './plan.js';

/** One host of a lease, from its launch to its end. */
export interface LeasedInstance extends AgentHost {
  role: Role;
  privateIp: string;
  instanceType: string;
  market: LaunchedGroup['market'];
  launchedAt: Date;
  /** When its agent first answered: boot and install are over. */
  readyAt?: Date;
  /** When it was terminated, or found gone. */
  endedAt?: Date;
}

export function leaseInfo(instances: readonly LeasedInstance[], lease: { options: Ec2Options; workers: number; launches: Record<Role, number>; now: Date }): ClusterInfo {
  const seconds = (from: Date, to: Date | undefined) => ((to ?? lease.now).getTime() - from.getTime()) / 1000;
  const workers = instances.filter((i) => i.role === 'worker');
  return {
    startupSeconds: Math.max(0, ...instances.map((i) => seconds(i.launchedAt, i.readyAt))),
    region: lease.options.region,
    instanceType: workers[0]?.instanceType,
    market: workers[0]?.market,
    workers: lease.workers,
    schedulerInstanceType: instances.find((i) => i.role === 'scheduler')?.instanceType,
    instanceIds: instances.map((i) => i.instanceId),
    launches: { ...lease.launches },
    instancesLaunched: instances.length,
    // Boot and install (until the agent answers) against the whole time the instances were held.
    bootSeconds: instances.reduce((sum, i) => sum + seconds(i.launchedAt, i.readyAt ?? i.endedAt), 0),
    instanceSeconds: instances.reduce((sum, i) => sum + seconds(i.launchedAt, i.endedAt), 0),
    // Per-second billing of each instance from launch to termination (a live figure until release).
    costUsd: instances.reduce((sum, i) => sum + estimateCostUsd([{ instanceType: i.instanceType, market: i.market, count: 1 }], seconds(i.launchedAt, i.endedAt), lease.options.prices), 0),
  };
}
