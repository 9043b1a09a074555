import { TerminateInstancesCommand } from '@aws-sdk/client-ec2';
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

const ec2 = useMoto();
let options: Ec2Options;

beforeAll(() => {
  const { ami, subnets, securityGroup } = ec2.resources;
  options = ec2Options({ ami, subnets: subnets.slice(0, 1), securityGroups: [securityGroup], instanceTypes: ['t3.micro'], prices: { 't3.micro': { onDemand: 0.0104 } } });
});

async function runOnEc2(runId: string, workloads: string[], repeats: number, agent = fakeAgent(), sink?: (r: RepeatRecord) => void) {
  const records: RepeatRecord[] = [];
  const provider = createEc2Provider({ createClient: () => ec2.moto.client(), probe: async () => {}, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 50 });
  const run = runSuite(sleepyPlan(sleepySuite(options), options, runId, workloads, { count: repeats }), {
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
