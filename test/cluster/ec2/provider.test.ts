import {
  DescribeInstancesCommand,
  EC2Client,
  EC2ServiceException,
  RunInstancesCommand,
  TerminateInstancesCommand,
  type RunInstancesCommandInput,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEc2Provider, type ReadinessProbe } from '../../../src/cluster/ec2/provider.js';
import { NightbenchError } from '../../../src/errors.js';
import { silentLog } from '../../../src/log.js';
import { fakeAgent } from './fake-agent.js';
import { ec2Options } from './options.js';
import { ec2Request } from './request.js';

const ec2 = mockClient(EC2Client);
const awsFailure = (name: string) => new EC2ServiceException({ name, $fault: 'server', $metadata: {}, message: `${name} (scripted)` });

let launchedIds: string[];

/** A RunInstances that always has capacity: `MinCount` fresh ids. */
function launch(input: RunInstancesCommandInput) {
  const ids = Array.from({ length: input.MinCount ?? 1 }, (_, n) => `i-${launchedIds.length + n + 1}`);
  launchedIds.push(...ids);
  return { Instances: ids.map((InstanceId) => ({ InstanceId })) };
}
let sleeps: number[];
let clock: number;

beforeEach(() => {
  ec2.reset();
  launchedIds = [];
  sleeps = [];
  clock = Date.parse('2026-12-02T01:00:00Z');
  ec2.on(RunInstancesCommand).callsFake(launch);
  ec2.on(DescribeInstancesCommand).callsFake((input: { InstanceIds?: string[] }) => ({
    Reservations: [{ Instances: (input.InstanceIds ?? []).map((id, n) => ({ InstanceId: id, State: { Name: 'running' }, PrivateIpAddress: `10.9.0.${n + 10}` })) }],
  }));
  ec2.on(TerminateInstancesCommand).resolves({});
});

afterEach(() => ec2.reset());

function provider(probe: ReadinessProbe = async () => {}, agent = fakeAgent()) {
  return createEc2Provider({
    createClient: (region) => new EC2Client({ region, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } }),
    probe,
    agent: () => agent,
    now: () => new Date(clock),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

const launches = () => ec2.commandCalls(RunInstancesCommand).map((c) => c.args[0].input);
const terminated = () => ec2.commandCalls(TerminateInstancesCommand).flatMap((c) => c.args[0].input.InstanceIds ?? []);

describe('ec2 provider start', () => {
  it('launches the scheduler and the workers, starts the workers against its private address, and waits for the probe', async () => {
    const probed: string[] = [];
    const agent = fakeAgent();
    const cluster = await provider(async (target) => void probed.push(`${target.schedulerAddress} x${target.workers}`), agent).start(ec2Request(ec2Options()), silentLog);
    expect(launches().map((l) => [l.MinCount, l.InstanceType, l.SubnetId, l.InstanceMarketOptions?.MarketType])).toEqual([
      [1, 'm5.large', 'subnet-0a', 'spot'],
      [2, 'm5.large', 'subnet-0a', 'spot'],
    ]);
    // The user-data installs the target and starts the agent; the agent starts the suite's processes.
    const workerScript = Buffer.from(launches()[1]!.UserData!, 'base64').toString();
    expect(workerScript).toContain(`pip install "git+https://example.invalid/dask@abc123"`);
    const worker = agent.calls.find((c) => c.name === 'worker-1')!;
    expect(worker.argv!.join(' ')).toContain('tcp://10.9.0.10:8786 --name worker-1 --nthreads 2 --memory-limit 1073741824');
    expect(probed).toEqual(['tcp://10.9.0.10:8786 x2']);
    expect(cluster.schedulerAddress).toBe('tcp://10.9.0.10:8786');
    expect(cluster.sampleTargets()).toEqual([]);
    clock += 3600_000;
    await cluster.stop();
    expect(terminated()).toEqual(launchedIds);
    const info = cluster.info();
    clock += 3600_000;
    // Billed until stop: three spot m5.large for one hour.
    expect(info).toMatchObject({ instanceType: 'm5.large', region: 'us-east-1', workers: 2, market: 'spot', costUsd: 3 * 0.04 });
    expect(JSON.parse(JSON.stringify(cluster.info())).costUsd).toBeCloseTo(3 * 0.04, 10);
  });

  it('gives two leases of one run (two A/B lanes) different idempotency tokens, so EC2 never hands one the other\'s instances', async () => {
    const hosts = provider();
    const leases = [await hosts.lease!(ec2Request(ec2Options()), silentLog), await hosts.lease!(ec2Request(ec2Options()), silentLog)];
    const tokens = launches().map((l) => l.ClientToken!);
    expect(tokens).toHaveLength(4);
    expect(new Set(tokens).size).toBe(4);
    for (const token of tokens) expect(token.length).toBeLessThanOrEqual(64);
    await Promise.all(leases.map((l) => l.release()));
  });

  it('falls back across subnets, then instance types, on capacity errors, with doubling waits', async () => {
    ec2.on(RunInstancesCommand, { MinCount: 1 }).rejectsOnce(awsFailure('InsufficientInstanceCapacity')).rejectsOnce(awsFailure('InsufficientInstanceCapacity')).callsFake(launch);
    const cluster = await provider().start(ec2Request(ec2Options()), silentLog);
    // Scheduler and workers launch side by side; only the scheduler's slots were short.
    const tried = (count: number) => launches().filter((l) => l.MinCount === count).map((l) => `${l.InstanceType} ${l.SubnetId}`);
    expect(tried(1)).toEqual(['m5.large subnet-0a', 'm5.large subnet-0b', 'm5a.large subnet-0a']);
    expect(tried(2)).toEqual(['m5.large subnet-0a']);
    expect(sleeps).toEqual([500, 1000]);
    expect(cluster.info()).toMatchObject({ schedulerInstanceType: 'm5a.large', instanceType: 'm5.large' });
    await cluster.stop();
  });

  it('falls back from spot to on-demand once no spot capacity is left anywhere', async () => {
    let refusals = 0;
    ec2.on(RunInstancesCommand).callsFake((input: RunInstancesCommandInput) => {
      if (!input.InstanceMarketOptions) return launch(input);
      refusals++;
      throw awsFailure('MaxSpotInstanceCountExceeded');
    });
    const cluster = await provider().start(ec2Request(ec2Options({ instanceTypes: ['m5.large'], subnets: ['subnet-0a'] })), silentLog);
    expect(refusals).toBe(2);
    expect(cluster.info()).toMatchObject({ market: 'on-demand' });
    await cluster.stop();
  });

  it('retries throttled calls', async () => {
    ec2.on(RunInstancesCommand, { MinCount: 1 }).rejectsOnce(awsFailure('RequestLimitExceeded')).callsFake(launch);
    const cluster = await provider().start(ec2Request(ec2Options()), silentLog);
    expect(launches()).toHaveLength(3);
    const scheduler = launches().filter((l) => l.MinCount === 1);
    expect(scheduler).toHaveLength(2);
    expect(scheduler[0]).toEqual(scheduler[1]);
    await cluster.stop();
  });
});

describe('ec2 teardown after a failed start', () => {
  it('terminates the scheduler when no slot has capacity for the workers, naming every refusal', async () => {
    ec2.on(RunInstancesCommand, { MinCount: 2 }).rejects(awsFailure('InsufficientInstanceCapacity'));
    const start = provider().start(ec2Request(ec2Options({ market: 'on-demand', subnets: ['subnet-0a'] })), silentLog);
    await expect(start).rejects.toThrow(/no capacity for the 2 workers in any instance type, subnet or market: m5\.large on-demand in subnet-0a: InsufficientInstanceCapacity; m5a\.large/);
    expect(terminated()).toEqual(launchedIds);
    expect(launchedIds).toHaveLength(1);
  });

  it('fails at once on an error no other slot would fix, and terminates what runs', async () => {
    ec2.on(RunInstancesCommand, { MinCount: 2 }).rejects(awsFailure('InvalidAMIID.NotFound'));
    await expect(provider().start(ec2Request(ec2Options()), silentLog)).rejects.toThrow(/launching the 2 workers: InvalidAMIID.NotFound/);
    expect(launches()).toHaveLength(2);
    expect(terminated()).toEqual(launchedIds);
  });

  it('terminates every instance when the scheduler never becomes ready', async () => {
    const start = provider(async () => {
      throw new Error('nothing listened in time');
    }).start(ec2Request(ec2Options()), silentLog);
    const error = await start.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NightbenchError);
    expect((error as NightbenchError).message).toMatch(/the scheduler at tcp:\/\/10\.9\.0\.10:8786 did not become ready: nothing listened in time/);
    expect(terminated()).toEqual(launchedIds);
    expect(launchedIds).toHaveLength(3);
  });
});
