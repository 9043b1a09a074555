import type { RunInstancesCommandInput, Tag } from '@aws-sdk/client-ec2';
import type { Ec2Options } from './options.js';
import { shellQuote } from '../../format/index.js';

/**
 * The pure half of the EC2 provider: what to launch, in which order, with which tags and
 * user-data, and what it costs. No SDK calls and no clock here (`now` is a parameter).
 */

/** Tag keys every nightbench instance carries; the reaper finds instances by them. */
export const tagKeys = {
  run: 'nightbench:run',
  expiresAt: 'nightbench:expires-at',
  repository: 'nightbench:repository',
  role: 'nightbench:role',
} as const;

export type Market = 'spot' | 'on-demand';
export type Role = 'scheduler' | 'worker';

/** One way to ask for capacity: an instance type in a subnet on a market. */
export interface LaunchSlot {
  instanceType: string;
  subnetId: string;
  market: Market;
}

/**
 * The fallback order: the preferred instance type in every subnet, then the next type; all of it
 * on spot first when spot is asked for, then on-demand. The type outranks the zone because the
 * instance type is part of what makes results comparable, the zone is not.
 */
export function launchSlots(options: Pick<Ec2Options, 'market' | 'instanceTypes' | 'subnets'>): LaunchSlot[] {
  const markets: Market[] = options.market === 'spot' ? ['spot', 'on-demand'] : ['on-demand'];
  return markets.flatMap((market) =>
    options.instanceTypes.flatMap((instanceType) => options.subnets.map((subnetId) => ({ instanceType, subnetId, market }))),
  );
}

export interface TagInput {
  runId: string;
  repository: string;
  role: Role;
  expiresAt: Date;
}

export function instanceTags(input: TagInput): Tag[] {
  return [
    { Key: 'Name', Value: `nightbench-${input.role}-${input.runId}` },
    { Key: tagKeys.run, Value: input.runId },
    { Key: tagKeys.expiresAt, Value: input.expiresAt.toISOString() },
    { Key: tagKeys.repository, Value: input.repository },
    { Key: tagKeys.role, Value: input.role },
  ];
}

/** The time after which an instance launched at `now` belongs to the reaper. */
export function expiryOf(now: Date, ttlMinutes: number): Date {
  return new Date(now.getTime() + ttlMinutes * 60_000);
}

/**
 * Stand-ins for what only the instance knows when it boots (its address, its host name). Put
 * into a process template as placeholder values, they become shell variables in the user-data.
 */
export const instanceValues = {
  host: '\u0000NIGHTBENCH_HOST\u0000',
  name: '\u0000NIGHTBENCH_NAME\u0000',
} as const;

/** Quotes one argument for sh; the instance stand-ins inside it become "$VARIABLE" expansions. */
export function shellWord(arg: string): string {
  return arg
    .split(/(\u0000[A-Z_]+\u0000)/)
    .filter((piece) => piece !== '')
    .map((piece) => (/^\u0000[A-Z_]+\u0000$/.test(piece) ? `"$${piece.slice(1, -1)}"` : shellQuote(piece)))
    .join('');
}

export interface UserDataInput {
  role: Role;
  runId: string;
  /** The process to start, with the instance stand-ins where its address and name go. */
  argv: string[];
  env: Record<string, string>;
  /** Installs the target at the commit under test (placeholders already filled). */
  setup: string;
  ttlMinutes: number;
}

/**
 * The boot script of an instance: schedule its own end at the time-to-live (the instance is
 * launched to terminate on shutdown, so even a lost runner cannot leak it for long), export the
 * run's environment, install the target, then become the suite's process.
 */
export function renderUserData(input: UserDataInput): string {
  const exports = Object.entries(input.env).map(([key, value]) => `export ${key}=${shellWord(value)}`);
  return [
    '#!/bin/bash',
    `# nightbench ${input.role} of run ${input.runId}`,
    'set -euo pipefail',
    `shutdown -h +${input.ttlMinutes} || true`,
    `export NIGHTBENCH_HOST="$(hostname -I | awk '{print $1}')"`,
    `export NIGHTBENCH_NAME="${input.role}-$(hostname)"`,
    ...exports,
    'mkdir -p /var/lib/nightbench && cd /var/lib/nightbench',
    input.setup.trim(),
    `exec ${input.argv.map(shellWord).join(' ')} >>/var/log/nightbench-${input.role}.log 2>&1`,
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .concat('\n');
}

export interface LaunchInput {
  options: Ec2Options;
  slot: LaunchSlot;
  role: Role;
  count: number;
  userData: string;
  tags: Tag[];
  /** Makes a retried call launch nothing twice (at most 64 characters). */
  clientToken: string;
}

/** The exact RunInstances request for one slot: all `count` instances or none (MinCount = MaxCount). */
export function runInstancesInput(input: LaunchInput): RunInstancesCommandInput {
  const { options, slot } = input;
  return {
    MinCount: input.count,
    MaxCount: input.count,
    InstanceType: slot.instanceType as RunInstancesCommandInput['InstanceType'],
    SubnetId: slot.subnetId,
    SecurityGroupIds: options.securityGroups,
    ...(options.ami ? { ImageId: options.ami } : {}),
    ...(options.launchTemplate
      ? {
          LaunchTemplate: {
            ...(options.launchTemplate.id ? { LaunchTemplateId: options.launchTemplate.id } : { LaunchTemplateName: options.launchTemplate.name }),
            Version: options.launchTemplate.version,
          },
        }
      : {}),
    UserData: Buffer.from(input.userData, 'utf8').toString('base64'),
    InstanceInitiatedShutdownBehavior: 'terminate',
    ...(slot.market === 'spot'
      ? { InstanceMarketOptions: { MarketType: 'spot', SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' } } }
      : {}),
    ...(options.iamInstanceProfile ? { IamInstanceProfile: { Name: options.iamInstanceProfile } } : {}),
    ...(options.keyName ? { KeyName: options.keyName } : {}),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: input.tags },
      { ResourceType: 'volume', Tags: input.tags },
    ],
    ClientToken: input.clientToken.slice(0, 64),
  };
}

/** Wait before the n-th retry (0-based) after a capacity error: doubling, at most a minute. */
export function backoffMs(attempt: number, baseSeconds: number): number {
  return Math.min(60_000, baseSeconds * 1000 * 2 ** attempt);
}

export interface LaunchedGroup {
  instanceType: string;
  market: Market;
  count: number;
}

/** Per-second billing at the configured hourly prices; spot without a spot price costs on-demand. */
export function estimateCostUsd(groups: readonly LaunchedGroup[], seconds: number, prices: Ec2Options['prices']): number {
  const perHour = groups.reduce((sum, group) => {
    const price = prices[group.instanceType];
    const hourly = price ? (group.market === 'spot' ? (price.spot ?? price.onDemand) : price.onDemand) : 0;
    return sum + hourly * group.count;
  }, 0);
  return (perHour * Math.max(0, seconds)) / 3600;
}

export interface TaggedInstance {
  instanceId: string;
  state: string;
  tags: Record<string, string>;
}

export interface ReapPlan {
  terminate: TaggedInstance[];
  /** Tagged as ours but with an expiry that is no date: left alone, reported. */
  unreadable: TaggedInstance[];
  /** Still within their time-to-live. */
  alive: TaggedInstance[];
}

/** Which of the repository's instances the reaper ends: those whose expiry has passed at `now`. */
export function planReap(instances: readonly TaggedInstance[], repository: string, now: Date): ReapPlan {
  const plan: ReapPlan = { terminate: [], unreadable: [], alive: [] };
  for (const instance of instances) {
    if (instance.tags[tagKeys.repository] !== repository) continue;
    if (instance.state === 'terminated' || instance.state === 'shutting-down') continue;
    const expiry = Date.parse(instance.tags[tagKeys.expiresAt] ?? '');
    if (Number.isNaN(expiry)) plan.unreadable.push(instance);
    else if (expiry <= now.getTime()) plan.terminate.push(instance);
    else plan.alive.push(instance);
  }
  return plan;
}
