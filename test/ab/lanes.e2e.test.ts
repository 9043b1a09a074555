import { beforeAll, describe, expect, it } from 'vitest';
import { runLanes } from '../../src/ab/lanes.js';
import { abGroups, buildSchedule } from '../../src/ab/schedule.js';
import type { Ec2Options } from '../../src/cluster/ec2/options.js';
import { createEc2Provider } from '../../src/cluster/ec2/provider.js';
import type { RepeatRecord } from '../../src/history/types.js';
import { silentLog } from '../../src/log.js';
import type { LeasePool } from '../../src/runner/lease-pool.js';
import { runSuite } from '../../src/runner/runner.js';
import { fakeAgent } from '../cluster/ec2/fake-agent.js';
import { allTerminated, instancesOfRun, launchesByRole, sleepyPlan, sleepySuite } from '../cluster/ec2/leased-run.js';
import { useMoto } from '../cluster/ec2/moto.js';
import { ec2Options } from '../cluster/ec2/options.js';

const ec2 = useMoto();
let options: Ec2Options;

beforeAll(() => {
  const { ami, subnets, securityGroup } = ec2.resources;
  options = ec2Options({ ami, subnets: subnets.slice(0, 1), securityGroups: [securityGroup], instanceTypes: ['t3.micro'], prices: { 't3.micro': { onDemand: 0.0104 } } });
});

/**
 * The slots of an A/B of two environments (no A'), one workload, `repeats` a side, run the way
 * runAb runs them: each slot a runSuite of its group's run, on its lane's leases. Environment B
 * tests another commit, which EC2 installs from user-data when it leases.
 */
function abOnEc2(id: string, repeats: number, maxParallel: number, signal?: AbortSignal, onRepeat?: (r: RepeatRecord) => void) {
  const suite = sleepySuite(options);
  const groups = abGroups(['main', 'candidate'], false);
  const schedule = buildSchedule(groups, [{ suite: 'sleepy', workload: 'a' }], { repeats, blockSize: 1, order: 'blocks', seed: 1 });
  const agent = fakeAgent();
  const provider = createEc2Provider({ createClient: () => ec2.moto.client(), probe: async () => {}, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 50 });
  const runId = (group: string) => `${id}-${group}`;
  const records: RepeatRecord[] = [];
  /** The groups of the slots each lane (told apart by its pool) ran, in order. */
  const lanes = new Map<LeasePool, string[]>();
  const done = runLanes(schedule, maxParallel, { log: silentLog, signal }, async (slot, _index, leases) => {
    lanes.set(leases, [...(lanes.get(leases) ?? []), slot.group]);
    const commit = slot.group === 'A' ? 'aaa111' : 'bbb222';
    const plan = sleepyPlan(suite, options, runId(slot.group), [slot.workload], { first: slot.firstRepeat, count: slot.count }, { placeholders: { python: '/usr/bin/python3', commit } });
    await runSuite(plan, { provider, sink: { recordRepeat: (r) => (records.push(r), onRepeat?.(r)) }, log: silentLog, signal, leases });
  });
  return { done, records, agent, lanes, runId, slots: schedule.length };
}

/** How often `group` starts a stretch of consecutive slots on a lane: what a lane leases it for. */
function stretchesOf(lanes: Map<LeasePool, string[]>, group: string): number {
  return [...lanes.values()].reduce((sum, order) => sum + order.filter((g, i) => g === group && order[i - 1] !== group).length, 0);
}

describe('A/B slots on EC2 share their lane\'s hosts (against a local EC2 endpoint)', () => {
  it('launches an environment\'s scheduler and workers once per stretch of its consecutive slots on a lane, starts fresh processes per slot, terminates them at the end', async () => {
    const ab = abOnEc2('ab-one-lane', 4, 1);
    const released = await ab.done;
    expect(ab.records.map((r) => r.status)).toEqual(Array(8).fill('ok'));
    const order = [...ab.lanes.values()][0]!;
    // The blocks order runs a group's slots back to back at times: those share one boot.
    expect(stretchesOf(ab.lanes, 'A') + stretchesOf(ab.lanes, 'B')).toBeLessThan(order.length);
    for (const group of ['A', 'B']) {
      const stretches = stretchesOf(ab.lanes, group);
      const instances = await instancesOfRun(ec2.client, ab.runId(group));
      expect(launchesByRole(instances)).toEqual({ scheduler: stretches, worker: stretches });
      expect(instances).toHaveLength(3 * stretches);
      expect(allTerminated(instances)).toBe(true);
      // Each lease's cost goes to the run it was taken for.
      expect(released.filter((r) => r.key === ab.runId(group)).reduce((sum, r) => sum + Number(r.info.instancesLaunched), 0)).toBe(3 * stretches);
    }
    // A fresh scheduler per slot, on the hosts of the slot's environment.
    expect(ab.agent.calls.filter((c) => c.call === 'start' && c.name === 'scheduler')).toHaveLength(8);
  });

  it('with two lanes, launches once per role and stretch of one environment\'s slots on each lane, never per slot', async () => {
    const ab = abOnEc2('ab-two-lanes', 4, 2);
    await ab.done;
    expect(ab.records.map((r) => r.status)).toEqual(Array(8).fill('ok'));
    expect(ab.lanes.size).toBe(2);
    for (const group of ['A', 'B']) {
      const stretches = stretchesOf(ab.lanes, group);
      const instances = await instancesOfRun(ec2.client, ab.runId(group));
      expect(launchesByRole(instances)).toEqual({ scheduler: stretches, worker: stretches });
      expect(allTerminated(instances)).toBe(true);
    }
  });

  it('terminates every host when the A/B is aborted midway', async () => {
    const abort = new AbortController();
    const ab = abOnEc2('ab-abort', 4, 2, abort.signal, () => {
      if (ab.records.length === 3) abort.abort();
    });
    await ab.done;
    expect(ab.records.length).toBeLessThan(ab.slots);
    const instances = [...(await instancesOfRun(ec2.client, ab.runId('A'))), ...(await instancesOfRun(ec2.client, ab.runId('B')))];
    expect(instances.length).toBeGreaterThan(0);
    expect(allTerminated(instances)).toBe(true);
  });
});
