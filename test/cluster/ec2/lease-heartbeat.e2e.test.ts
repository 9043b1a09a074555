/**
 * Hosts live as long as their lease (against a local EC2 endpoint): a bisect-length lease of six
 * hours on a three-hour time-to-live keeps its hosts' expiry ahead of the clock while it is held,
 * a replacement host gets a whole time-to-live of its own, a host with a spot interruption notice
 * is replaced before the next cluster starts, and once the holder is gone the reaper ends them.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ec2Options } from '../../../src/cluster/ec2/options.js';
import { tagKeys } from '../../../src/cluster/ec2/plan.js';
import { createEc2Provider } from '../../../src/cluster/ec2/provider.js';
import { reapExpired } from '../../../src/cluster/ec2/reap.js';
import type { HostLease } from '../../../src/cluster/types.js';
import { silentLog } from '../../../src/log.js';
import { fakeAgent } from './fake-agent.js';
import { allTerminated, instancesOfRun, type TaggedInstance } from './leased-run.js';
import { useMoto } from './moto.js';
import { ec2Options } from './options.js';
import { ec2Request } from './request.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ec2 = useMoto();
let options: Ec2Options;
const ttlMinutes = 180;
const minutes = (n: number) => n * 60_000;

beforeAll(() => {
  const { ami, subnets, securityGroup } = ec2.resources;
  options = ec2Options({ ami, subnets: subnets.slice(0, 1), securityGroups: [securityGroup], instanceTypes: ['t3.micro'], prices: { 't3.micro': { onDemand: 0.0104 } }, ttlMinutes, repository: 'acme/perf' });
});

/** A provider on a clock the test moves, beating every 20 ms of real time. */
function provider(clock: { now: Date }, agent = fakeAgent()) {
  return {
    agent,
    provider: createEc2Provider({ createClient: () => ec2.moto.client(), probe: async () => {}, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 50, heartbeatIntervalMs: 20, now: () => clock.now }),
  };
}

const expiries = (instances: TaggedInstance[]) => instances.filter((i) => i.State?.Name === 'running').map((i) => Date.parse(i.Tags!.find((t) => t.Key === tagKeys.expiresAt)!.Value!));

/** Waits (in real time) until `check` holds, as the heartbeat runs on its own timer. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a lease held longer than the time-to-live', () => {
  it('keeps its hosts\' expiry ahead of the clock for six hours; the reaper leaves them alone meanwhile', async () => {
    const clock = { now: new Date('2026-12-03T02:00:00Z') };
    const { provider: ec2Provider, agent } = provider(clock);
    const lease: HostLease = await ec2Provider.lease!(ec2Request(options, { runId: 'bisect-6h' }), silentLog);
    try {
      for (let held = 30; held <= 360; held += 30) {
        clock.now = new Date(Date.parse('2026-12-03T02:00:00Z') + minutes(held));
        await eventually(async () => expiries(await instancesOfRun(ec2.client, 'bisect-6h')).every((e) => e >= clock.now.getTime() + minutes(ttlMinutes)), `expiry pushed past ${clock.now.toISOString()}`);
        const reaped = await reapExpired(ec2.client, { repository: 'acme/perf', now: clock.now });
        expect(reaped.terminated).toEqual([]);
      }
      const instances = await instancesOfRun(ec2.client, 'bisect-6h');
      expect(instances.filter((i) => i.State?.Name === 'running')).toHaveLength(3);
      // Each host's own shutdown was moved too, to a whole time-to-live from the beat.
      const extended = agent.calls.filter((c) => c.call === 'extend');
      expect(new Set(extended.map((c) => c.instanceId)).size).toBe(3);
      expect(new Set(extended.map((c) => c.minutes))).toEqual(new Set([ttlMinutes]));
    } finally {
      await lease.release();
    }
    expect(allTerminated(await instancesOfRun(ec2.client, 'bisect-6h'))).toBe(true);
  });

  it('replaces a host with a spot notice before the next cluster, the replacement expiring a whole time-to-live after its launch', async () => {
    const clock = { now: new Date('2026-12-03T02:00:00Z') };
    const { provider: ec2Provider, agent } = provider(clock);
    const request = ec2Request(options, { runId: 'spot-notice' });
    const lease = await ec2Provider.lease!(request, silentLog);
    try {
      const first = await lease.start(request, silentLog);
      const noticed = (first.info().instanceIds as string[]).at(-1)!;
      agent.statuses.set(noticed, { exited: {}, interruption: '{"action": "terminate", "time": "2026-12-03T04:32:00Z"}' });
      await first.stop();
      clock.now = new Date('2026-12-03T04:30:00Z');
      const second = await lease.start(request, silentLog);
      const hosts = second.info().instanceIds as string[];
      expect(hosts).not.toContain(noticed);
      await second.stop();
      const instances = await instancesOfRun(ec2.client, 'spot-notice');
      const replacement = instances.find((i) => hosts.includes(i.InstanceId!) && !(first.info().instanceIds as string[]).includes(i.InstanceId!))!;
      expect(Date.parse(replacement.Tags!.find((t) => t.Key === tagKeys.expiresAt)!.Value!)).toBe(clock.now.getTime() + minutes(ttlMinutes));
      expect(instances.find((i) => i.InstanceId === noticed)!.State?.Name).not.toBe('running');
    } finally {
      await lease.release();
    }
  });

  it('ends with its holder: a runner killed outright beats no more, and the reaper ends its hosts once the expiry passes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./hold-cluster.ts', import.meta.url))], {
      env: { ...process.env, MOTO_ENDPOINT: ec2.moto.endpoint, NB_EC2_OPTIONS: JSON.stringify(options), NB_RUN_ID: 'orphaned', NB_WORKDIR: tempDir('nb-ec2-') },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const held = await new Promise<string[]>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as string[]));
      child.once('exit', () => reject(new Error('the holder exited before leasing')));
    });
    const killed = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await killed;
    const justBefore = await reapExpired(ec2.client, { repository: 'acme/perf', now: new Date(Date.now() + minutes(ttlMinutes - 5)) });
    expect(justBefore.terminated.filter((id) => held.includes(id))).toEqual([]);
    const reaped = await reapExpired(ec2.client, { repository: 'acme/perf', now: new Date(Date.now() + minutes(ttlMinutes + 1)) });
    expect(reaped.terminated.filter((id) => held.includes(id)).sort()).toEqual([...held].sort());
    expect(allTerminated(await instancesOfRun(ec2.client, 'orphaned'))).toBe(true);
  });
});
