import { TerminateInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ec2Options } from '../../../src/cluster/ec2/options.js';
import { createEc2Provider } from '../../../src/cluster/ec2/provider.js';
import type { RepeatRecord } from '../../../src/history/types.js';
import { silentLog } from '../../../src/log.js';
import { runSuite, type RunSummary } from '../../../src/runner/runner.js';
import { fakeAgent } from './fake-agent.js';
import { useMoto } from './moto.js';
import { ec2Options } from './options.js';
import { allTerminated, instancesOfRun, launchesByRole, outcomes, sleepyPlan, sleepySuite } from './leased-run.js';
import { tempDir } from '../../helpers/temp-dir.js';

const ec2 = useMoto();
let options: Ec2Options;

beforeAll(() => {
  const { ami, subnets, securityGroup } = ec2.resources;
  options = ec2Options({ ami, subnets: subnets.slice(0, 1), securityGroups: [securityGroup], instanceTypes: ['t3.micro'], prices: { 't3.micro': { onDemand: 0.0104 } } });
});

/** A run of the sleepy suite on moto; `failWhile` makes its workloads fail while that file exists, `client` can refuse calls. */
async function runOnEc2(
  runId: string, workloads: string[], repeats: number, agent = fakeAgent(), sink?: (r: RepeatRecord) => void,
  extra: { failWhile?: string; client?: () => EC2Client; retryInfrastructure?: () => boolean } = {},
) {
  const records: RepeatRecord[] = [];
  const provider = createEc2Provider({ createClient: extra.client ?? (() => ec2.moto.client()), probe: async () => {}, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 50 });
  const plan = { ...sleepyPlan(sleepySuite(options, 1.5, extra.failWhile), options, runId, workloads, { count: repeats }), retryInfrastructure: extra.retryInfrastructure };
  const run = runSuite(plan, {
    provider,
    sink: { recordRepeat: (r) => (sink?.(r), records.push(r)) },
    log: silentLog,
  });
  return { run, records, agent };
}

describe('ec2 hosts leased once per run (against a local EC2 endpoint)', () => {
  it('launches the scheduler and the workers once for three workloads, starts fresh processes per workload, terminates them at the end', async () => {
    const { run, records, agent } = await runOnEc2('lease-ok', ['a', 'b', 'c'], 2);
    const summary: RunSummary = await run;
    expect(outcomes(records)).toEqual(['a#1:ok', 'a#2:ok', 'b#1:ok', 'b#2:ok', 'c#1:ok', 'c#2:ok']);
    const instances = await instancesOfRun(ec2.client, 'lease-ok');
    expect(instances).toHaveLength(3);
    expect(launchesByRole(instances)).toEqual({ scheduler: 1, worker: 1 });
    // One scheduler and two workers started for each workload, on the same three hosts, each stopped after it.
    const starts = agent.calls.filter((c) => c.call === 'start');
    expect(starts.map((c) => c.name)).toEqual(Array.from({ length: 3 }, () => ['scheduler', 'worker-1', 'worker-2']).flat());
    expect(starts.filter((c) => c.name === 'scheduler')).toHaveLength(3);
    expect(new Set(starts.map((c) => c.instanceId)).size).toBe(3);
    expect(agent.calls.filter((c) => c.call === 'stopAll')).toHaveLength(3 * 3);
    expect(summary.clusters.find((c) => c.lease)).toMatchObject({ launches: { scheduler: 1, worker: 1 }, instancesLaunched: 3 });
    expect(allTerminated(instances)).toBe(true);
  });

  it('replaces a worker host lost mid-repeat and records that repeat as disturbed', async () => {
    const agent = fakeAgent();
    let schedulerStarts = 0;
    let lost = '';
    agent.onStart = (call) => {
      if (call.name === 'scheduler') schedulerStarts++;
      // During the first repeat of the second workload, its worker-1 host goes away.
      if (call.name === 'worker-1' && schedulerStarts === 2 && !lost) {
        lost = call.instanceId;
        setTimeout(() => void ec2.client.send(new TerminateInstancesCommand({ InstanceIds: [lost] })), 300);
      }
    };
    const { run, records } = await runOnEc2('lease-lost', ['a', 'b'], 2, agent);
    await run;
    expect(outcomes(records)).toEqual(['a#1:ok', 'a#2:ok', 'b#1:disturbed', 'b#2:ok']);
    expect(records[2]!.disturbance).toContain(`worker host ${lost} left running`);
    const instances = await instancesOfRun(ec2.client, 'lease-lost');
    // The original three and one replacement worker, launched by a second RunInstances for one worker.
    expect(instances).toHaveLength(4);
    expect(launchesByRole(instances)).toEqual({ scheduler: 1, worker: 2 });
    // The last workload's processes ran on the replacement, not on the lost host.
    const firstHosts = new Set(agent.calls.slice(0, 3).map((c) => c.instanceId));
    const replacement = instances.find((i) => !firstHosts.has(i.InstanceId!))!;
    const lastStarts = agent.calls.filter((c) => c.call === 'start').slice(-3);
    expect(lastStarts.map((c) => c.instanceId)).toContain(replacement.InstanceId);
    expect(lastStarts.map((c) => c.instanceId)).not.toContain(lost);
    expect(allTerminated(instances)).toBe(true);
  });

  it('marks the repeat disturbed when a spot interruption notice appears', async () => {
    const agent = fakeAgent();
    agent.onStart = (call) => {
      if (call.name !== 'worker-2' || agent.calls.filter((c) => c.name === 'worker-2').length !== 1) return;
      agent.statuses.set(call.instanceId, { exited: {}, interruption: '{"action": "terminate", "time": "2026-12-03T08:00:00Z"}' });
      setTimeout(() => agent.statuses.delete(call.instanceId), 1000);
    };
    const { run, records } = await runOnEc2('lease-spot', ['a'], 2, agent);
    await run;
    expect(outcomes(records)).toEqual(['a#1:disturbed', 'a#2:ok']);
    expect(records[0]!.disturbance).toMatch(/spot interruption notice for worker host i-\w+: \{"action": "terminate"/);
    expect(allTerminated(await instancesOfRun(ec2.client, 'lease-spot'))).toBe(true);
  });

  it('records a repeat that failed as its host was reclaimed as the machine\'s failure, with its cause, and retries it on a replacement', async () => {
    const agent = fakeAgent();
    const vanished = path.join(tempDir('nb-reclaimed-'), 'worker-gone');
    let schedulerStarts = 0;
    let reclaimed = '';
    agent.onStart = (call) => {
      if (call.name === 'scheduler' && ++schedulerStarts > 1) rmSync(vanished, { force: true });
      // Under the first repeat, EC2 takes worker-1's host back (a spot reclaim), and the workload fails for it.
      if (call.name === 'worker-1' && schedulerStarts === 1 && !reclaimed) {
        reclaimed = call.instanceId;
        writeFileSync(vanished, '');
        setTimeout(() => void ec2.client.send(new TerminateInstancesCommand({ InstanceIds: [reclaimed] })), 300);
      }
    };
    const { run, records } = await runOnEc2('lease-reclaimed', ['a'], 2, agent, undefined, { failWhile: vanished, retryInfrastructure: () => true });
    await run;
    expect(outcomes(records)).toEqual(['a#1:failed', 'a#2:ok', 'a#3:ok']);
    expect(records[0]!.failure).toEqual({ class: 'infrastructure', cause: 'a host was lost or reclaimed' });
    expect(records[0]!.error).toContain('KilledWorker: the worker vanished');
    expect(records[0]!.disturbance).toContain(`worker host ${reclaimed} left running`);
    const instances = await instancesOfRun(ec2.client, 'lease-reclaimed');
    expect(launchesByRole(instances)).toEqual({ scheduler: 1, worker: 2 });
    expect(allTerminated(instances)).toBe(true);
  });

  it('records no capacity to replace a lost host as the machine\'s failure, with its cause, and retries it', async () => {
    const agent = fakeAgent();
    let refuse = false;
    /** moto, except that RunInstances finds no capacity anywhere while `refuse` is set. */
    const client = () => {
      const moto = ec2.moto.client();
      moto.middlewareStack.add((next, context) => async (args) => {
        if (refuse && context.commandName === 'RunInstancesCommand') throw Object.assign(new Error('We currently do not have sufficient capacity'), { name: 'InsufficientInstanceCapacity' });
        return next(args);
      }, { step: 'initialize' });
      return moto;
    };
    agent.onStart = (call) => {
      if (call.name !== 'worker-2' || agent.calls.some((c) => c.name === 'worker-2' && c !== call)) return;
      // The first repeat loses worker-2's host; from then on no capacity is left for its replacement.
      refuse = true;
      setTimeout(() => void ec2.client.send(new TerminateInstancesCommand({ InstanceIds: [call.instanceId] })), 300);
    };
    const { run, records } = await runOnEc2('lease-no-capacity', ['a'], 2, agent, (r) => {
      if (r.failure) refuse = false;
    }, { client, retryInfrastructure: () => true });
    await run;
    expect(outcomes(records)).toEqual(['a#1:disturbed', 'a#2:failed', 'a#3:ok']);
    expect(records[1]!.failure).toEqual({ class: 'infrastructure', cause: 'no capacity for a host' });
    expect(records[1]!.error).toMatch(/cluster: ec2: no capacity for the 1 workers in any instance type, subnet or market: t3\.micro spot in subnet-\w+: InsufficientInstanceCapacity; t3\.micro on-demand in subnet-\w+: InsufficientInstanceCapacity$/);
    expect(allTerminated(await instancesOfRun(ec2.client, 'lease-no-capacity'))).toBe(true);
  });

  it('terminates every host when the run fails midway', async () => {
    const { run } = await runOnEc2('lease-failed', ['a', 'b'], 2, fakeAgent(), () => {
      throw new Error('the history is gone');
    });
    await expect(run).rejects.toThrow('the history is gone');
    const instances = await instancesOfRun(ec2.client, 'lease-failed');
    expect(instances).toHaveLength(3);
    expect(allTerminated(instances)).toBe(true);
  });
});
