import {
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  RunInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ec2Options } from '../../../src/cluster/ec2/options.js';
import { tagKeys } from '../../../src/cluster/ec2/plan.js';
import { createEc2Provider } from '../../../src/cluster/ec2/provider.js';
import { reapExpired } from '../../../src/cluster/ec2/reap.js';
import { silentLog } from '../../../src/log.js';
import { runCli } from '../../helpers/cli.js';
import { fakeAgent } from './fake-agent.js';
import { useMoto } from './moto.js';
import { ec2Options } from './options.js';
import { ec2Request } from './request.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ec2 = useMoto();
let options: Ec2Options;

beforeAll(() => {
  const { ami, subnets, securityGroup } = ec2.resources;
  options = ec2Options({ ami, subnets: subnets.slice(0, 2), securityGroups: [securityGroup], instanceTypes: ['t3.micro', 'm5.large'], prices: { 't3.micro': { onDemand: 0.0104 }, 'm5.large': { onDemand: 0.096 } } });
});

const provider = (probe: () => Promise<void> = async () => {}, agent = fakeAgent()) =>
  createEc2Provider({ createClient: () => ec2.moto.client(), probe, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 50 });

async function instancesOfRun(runId: string): Promise<Instance[]> {
  const answer = await ec2.client.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:${tagKeys.run}`, Values: [runId] }] }));
  return (answer.Reservations ?? []).flatMap((r) => r.Instances ?? []);
}

const states = (instances: Instance[]) => instances.map((i) => i.State?.Name);
const tagsOf = (instance: Instance) => Object.fromEntries((instance.Tags ?? []).map((t) => [t.Key, t.Value]));

describe('ec2 provider against a local EC2 endpoint', () => {
  it('launches tagged instances with the planned parameters and terminates them on stop', async () => {
    const cluster = await provider().start(ec2Request(options, { runId: 'moto-ok' }), silentLog);
    const running = await instancesOfRun('moto-ok');
    expect(states(running)).toEqual(['running', 'running', 'running']);
    expect(running.map((i) => i.InstanceType)).toEqual(['t3.micro', 't3.micro', 't3.micro']);
    expect(new Set(running.map((i) => i.SubnetId))).toEqual(new Set([options.subnets[0]]));
    const roles = running.map((i) => tagsOf(i)[tagKeys.role]).sort();
    expect(roles).toEqual(['scheduler', 'worker', 'worker']);
    for (const instance of running) {
      expect(tagsOf(instance)).toMatchObject({ [tagKeys.run]: 'moto-ok', [tagKeys.repository]: 'acme/nightbench' });
      expect(Date.parse(tagsOf(instance)[tagKeys.expiresAt]!)).toBeGreaterThan(Date.now() + 170 * 60_000);
    }
    const scheduler = running.find((i) => tagsOf(i)[tagKeys.role] === 'scheduler')!;
    expect(cluster.schedulerAddress).toBe(`tcp://${scheduler.PrivateIpAddress}:8786`);
    const attribute = await ec2.client.send(new DescribeInstanceAttributeCommand({ InstanceId: scheduler.InstanceId, Attribute: 'userData' }));
    const script = Buffer.from(attribute.UserData!.Value!, 'base64').toString();
    expect(script).toMatch(/^#!\/bin\/bash\n/);
    // The instance runs the agent; the suite's processes are started through it, per workload.
    expect(script).toMatch(/export NIGHTBENCH_AGENT_TOKEN='[0-9a-f]{48}'/);
    expect(script).toContain(`exec '/usr/bin/python3' '-c' '`);
    // Client commands run on this machine, with the run's environment.
    const echoed = await cluster.runCommand({ argv: ['sh', '-c', 'echo "$DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION $X"'], env: { X: 'y' }, timeoutMs: 10_000 });
    expect(echoed.stdout.trim()).toBe('1.1 y');
    await cluster.stop();
    await cluster.stop();
    expect(states(await instancesOfRun('moto-ok')).every((s) => s === 'terminated' || s === 'shutting-down')).toBe(true);
  });

  it('terminates every instance after a failed start', async () => {
    const start = provider(async () => {
      throw new Error('the scheduler never answered');
    }).start(ec2Request(options, { runId: 'moto-failed' }), silentLog);
    await expect(start).rejects.toThrow(/did not become ready: the scheduler never answered/);
    const instances = await instancesOfRun('moto-failed');
    expect(instances).toHaveLength(3);
    expect(states(instances).every((s) => s === 'terminated' || s === 'shutting-down')).toBe(true);
  });

  it('terminates every instance when the process gets SIGTERM', async () => {
    const script = fileURLToPath(new URL('./hold-cluster.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, MOTO_ENDPOINT: ec2.moto.endpoint, NB_EC2_OPTIONS: JSON.stringify(options), NB_RUN_ID: 'moto-sigterm', NB_WORKDIR: tempDir('nb-ec2-') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ids = await new Promise<string[]>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as string[]));
      child.once('exit', () => reject(new Error(`the child exited before starting: ${stderr}`)));
    });
    expect(ids).toHaveLength(3);
    expect(states(await instancesOfRun('moto-sigterm'))).toEqual(['running', 'running', 'running']);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(stderr).toContain('SIGTERM: tearing down the ec2 cluster');
    expect(states(await instancesOfRun('moto-sigterm')).every((s) => s === 'terminated' || s === 'shutting-down')).toBe(true);
  });
});

describe('nightbench reap against a local EC2 endpoint', () => {
  async function launchTagged(name: string, tags: Record<string, string>): Promise<string> {
    const answer = await ec2.client.send(
      new RunInstancesCommand({
        ImageId: options.ami,
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
        TagSpecifications: [{ ResourceType: 'instance', Tags: Object.entries({ Name: name, ...tags }).map(([Key, Value]) => ({ Key, Value })) }],
      }),
    );
    return answer.Instances![0]!.InstanceId!;
  }

  async function stateOf(id: string): Promise<string | undefined> {
    const answer = await ec2.client.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    return answer.Reservations?.[0]?.Instances?.[0]?.State?.Name;
  }

  it('terminates only expired instances of this repository', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const expired = await launchTagged('expired', { [tagKeys.repository]: 'acme/reaped', [tagKeys.expiresAt]: past });
    const alive = await launchTagged('alive', { [tagKeys.repository]: 'acme/reaped', [tagKeys.expiresAt]: future });
    const otherRepository = await launchTagged('other', { [tagKeys.repository]: 'someone/else', [tagKeys.expiresAt]: past });
    const untagged = await launchTagged('untagged', {});

    const dryRun = await reapExpired(ec2.client, { repository: 'acme/reaped', now: new Date(), dryRun: true });
    expect(dryRun.terminate.map((i) => i.instanceId)).toEqual([expired]);
    expect(dryRun.terminated).toEqual([]);
    expect(await stateOf(expired)).toBe('running');

    const cli = await runCli(['reap', '--region', 'us-east-1', '--repository', 'acme/reaped', '--json'], {
      env: { AWS_ENDPOINT_URL_EC2: ec2.moto.endpoint, AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_PROFILE: undefined },
      timeoutMs: 60_000,
    });
    expect(cli.stderr).not.toContain('internal error');
    expect(cli.code).toBe(0);
    const report = JSON.parse(cli.stdout) as { terminated: string[]; alive: string[] };
    expect(report.terminated).toEqual([expired]);
    expect(report.alive).toEqual([alive]);
    expect(await stateOf(expired)).toMatch(/terminated|shutting-down/);
    for (const id of [alive, otherRepository, untagged]) expect(await stateOf(id)).toBe('running');
  });

  it('says what is missing when neither flags, config nor environment give a region', async () => {
    const result = await runCli(['reap', '--repository', 'acme/reaped'], {
      cwd: tempDir('nb-reap-'),
      env: { AWS_REGION: undefined, AWS_DEFAULT_REGION: undefined },
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('reap: no region: pass --region, set cluster.options.region of an ec2 config, or AWS_REGION');
  });

  it('explains itself with --help', async () => {
    const help = await runCli(['reap', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/terminate every EC2 instance of this repository whose nightbench:expires-at tag\s+has passed/);
    expect(help.stdout).toContain('Only instances tagged nightbench:repository=<repository> are considered');
    expect(help.stdout).toContain('--dry-run');
  });
});
