import {
  CreateTagsCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
  waitUntilInstanceRunning,
  type Instance,
  type RunInstancesCommandInput,
} from '@aws-sdk/client-ec2';
import { NightbenchError, firstLine } from '../../errors.js';
import { HostTroubleError } from '../types.js';
import type { Log } from '../../log.js';
import { backoffMs, type LaunchSlot, type TaggedInstance } from './plan.js';

/**
 * The I/O half of the EC2 provider: every call goes through an EC2Client, so tests can point it
 * at a local endpoint or mock it. Credentials are whatever the SDK finds in the environment; none
 * are read, passed or logged here.
 */

export type Sleep = (ms: number) => Promise<void>;
export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function createEc2Client(region: string): EC2Client {
  return new EC2Client({ region });
}

/** Error codes that mean "no capacity for this slot now": the next slot may have some. */
const capacityCodes = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientFreeAddressesInSubnet',
  'SpotMaxPriceTooLow',
  'MaxSpotInstanceCountExceeded',
  'UnfulfillableCapacity',
  'Unsupported',
]);

/** Codes that mean "slow down": the same call succeeds later. */
const throttlingCodes = new Set(['RequestLimitExceeded', 'Throttling', 'ThrottlingException', 'TooManyRequestsException']);

const errorCode = (error: unknown): string => (error instanceof Error ? error.name : '');
export const isCapacityError = (error: unknown): boolean => capacityCodes.has(errorCode(error));
export const isThrottlingError = (error: unknown): boolean => throttlingCodes.has(errorCode(error));

export function awsError(what: string, error: unknown): NightbenchError {
  return new NightbenchError('aws', `ec2: ${what}: ${errorCode(error) ? `${errorCode(error)}: ` : ''}${firstLine(error)}`, { cause: error });
}

/**
 * Retries a call that was throttled, with doubling waits. The SDK retries a few times itself;
 * this outlasts a longer storm (a nightly run must not fail its teardown on a busy account).
 */
export async function retryThrottled<T>(call: () => Promise<T>, options: { sleep: Sleep; attempts?: number; baseMs?: number }): Promise<T> {
  const attempts = options.attempts ?? 6;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isThrottlingError(error) || attempt + 1 >= attempts) throw error;
      await options.sleep(Math.min(30_000, (options.baseMs ?? 500) * 2 ** attempt));
    }
  }
}

export interface Launched {
  slot: LaunchSlot;
  instances: Instance[];
}

/**
 * Tries each slot in order until one launches: a capacity error moves on to the next slot after a
 * backoff, anything else (bad AMI, no permission) fails at once, since no other slot would help.
 */
export async function launchWithFallback(
  client: EC2Client,
  slots: readonly LaunchSlot[],
  input: (slot: LaunchSlot, attempt: number) => RunInstancesCommandInput,
  options: { sleep: Sleep; backoffSeconds: number; log: Log; what: string },
): Promise<Launched> {
  const refusals: string[] = [];
  for (const [attempt, slot] of slots.entries()) {
    if (attempt > 0) await options.sleep(backoffMs(attempt - 1, options.backoffSeconds));
    try {
      const answer = await retryThrottled(() => client.send(new RunInstancesCommand(input(slot, attempt))), options);
      return { slot, instances: answer.Instances ?? [] };
    } catch (error) {
      if (!isCapacityError(error)) throw awsError(`launching the ${options.what}`, error);
      const where = `${slot.instanceType} ${slot.market} in ${slot.subnetId}`;
      refusals.push(`${where}: ${errorCode(error)}`);
      options.log.warn(`ec2: no capacity for the ${options.what} (${where}: ${errorCode(error)}); trying the next instance type or subnet`);
    }
  }
  throw new HostTroubleError('capacity', `ec2: no capacity for the ${options.what} in any instance type, subnet or market: ${refusals.join('; ')}`);
}

/** Waits until every instance runs, then returns their descriptions (with addresses). */
export async function waitRunning(client: EC2Client, instanceIds: string[], deadline: number, options: { sleep: Sleep }): Promise<Instance[]> {
  const maxWaitTime = Math.max(1, Math.floor((deadline - Date.now()) / 1000));
  const result = await waitUntilInstanceRunning({ client, maxWaitTime, minDelay: 1, maxDelay: 10 }, { InstanceIds: instanceIds }).catch((error: unknown) => {
    throw awsError(`waiting for instances ${instanceIds.join(', ')} to run`, error);
  });
  if (result.state !== 'SUCCESS') throw new NightbenchError('aws', `ec2: instances ${instanceIds.join(', ')} did not reach "running" in time (${result.state})`);
  return describe(client, { InstanceIds: instanceIds }, options);
}

async function describe(client: EC2Client, input: ConstructorParameters<typeof DescribeInstancesCommand>[0], options: { sleep: Sleep }): Promise<Instance[]> {
  const instances: Instance[] = [];
  let token: string | undefined;
  do {
    const page = await retryThrottled(() => client.send(new DescribeInstancesCommand({ ...input, NextToken: token })), options);
    for (const reservation of page.Reservations ?? []) instances.push(...(reservation.Instances ?? []));
    token = page.NextToken;
  } while (token);
  return instances;
}

/** Each instance's state (pending, running, shutting-down, ...); an instance EC2 no longer knows is absent. */
export async function describeStates(client: EC2Client, instanceIds: readonly string[], options: { sleep: Sleep }): Promise<Map<string, string>> {
  if (instanceIds.length === 0) return new Map();
  const instances = await describe(client, { InstanceIds: [...instanceIds] }, options);
  return new Map(instances.map((i) => [i.InstanceId ?? '', i.State?.Name ?? 'unknown']));
}

/** Every live instance that carries the given tag key, with its tags as a record. */
export async function listTagged(client: EC2Client, tagKey: string, options: { sleep: Sleep }): Promise<TaggedInstance[]> {
  const instances = await describe(
    client,
    { Filters: [{ Name: 'tag-key', Values: [tagKey] }, { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }] },
    options,
  ).catch((error: unknown) => {
    throw awsError(`listing the instances tagged ${tagKey}`, error);
  });
  return instances.map((instance) => ({
    instanceId: instance.InstanceId ?? '',
    state: instance.State?.Name ?? 'unknown',
    tags: Object.fromEntries((instance.Tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? ''])),
  }));
}

/** Terminates instances, in batches the API accepts; an empty list is no call. */
export async function terminate(client: EC2Client, instanceIds: readonly string[], options: { sleep: Sleep }): Promise<void> {
  for (let i = 0; i < instanceIds.length; i += 500) {
    const batch = instanceIds.slice(i, i + 500);
    await retryThrottled(() => client.send(new TerminateInstancesCommand({ InstanceIds: batch })), options).catch((error: unknown) => {
      throw awsError(`terminating ${batch.join(', ')}`, error);
    });
  }
}

/** Sets one tag on instances (replacing its value), in batches the API accepts. */
export async function setTag(client: EC2Client, instanceIds: readonly string[], tag: { Key: string; Value: string }, options: { sleep: Sleep }): Promise<void> {
  for (let i = 0; i < instanceIds.length; i += 500) {
    const batch = instanceIds.slice(i, i + 500);
    await retryThrottled(() => client.send(new CreateTagsCommand({ Resources: batch, Tags: [tag] })), options).catch((error: unknown) => {
      throw awsError(`tagging ${batch.join(', ')}`, error);
    });
  }
}
