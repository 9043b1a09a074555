/**
 * What leasing hosts once per run saves on EC2: the default Dask suite's 11 workloads against a
 * local EC2 endpoint (moto), with a simulated boot of 90 s and install of 60 s per instance and a
 * fixed time per workload, on a simulated clock (nothing waits for real). "before" starts a cluster
 * per workload, as the runner did; "after" leases the hosts once and starts processes per workload.
 * Prints instances launched, RunInstances calls, instance-seconds booting and installing against
 * instance-seconds left for workloads, and the estimated cost of a night.
 * Then the same for an A/B of two environments with its A/A (groups A, A', B), `--ab-repeats` slots
 * of one workload a group on `--ab-lanes` lanes, run as runAb runs them (runLanes, then runSuite
 * per slot): "before" leases per slot (runSuite without the lane's pool, as runAb did), "after"
 * keeps a group's hosts across its consecutive slots on a lane (the lane's single-key pool).
 *   npx tsx bench/ec2-lease.ts [--workers 10] [--workloads 11] [--workload-seconds 180] [--boot 90] [--install 60] [--price 0.096] [--ab-repeats 8] [--ab-lanes 1]
 */
import { RunInstancesCommand } from '@aws-sdk/client-ec2';
import { parseArgs } from 'node:util';
import { runLanes } from '../src/ab/lanes.js';
import { abGroups, buildSchedule } from '../src/ab/schedule.js';
import { createEc2Provider } from '../src/cluster/ec2/provider.js';
import { silentLog } from '../src/log.js';
import { runSuite } from '../src/runner/runner.js';
import type { ClusterInfo, HostLease } from '../src/cluster/types.js';
import { fakeAgent } from '../test/cluster/ec2/fake-agent.js';
import { sleepyPlan, sleepySuite } from '../test/cluster/ec2/leased-run.js';
import { motoResources, startMoto } from '../test/cluster/ec2/moto.js';
import { ec2Options } from '../test/cluster/ec2/options.js';
import { ec2Request } from '../test/cluster/ec2/request.js';

const { values: flags } = parseArgs({
  options: {
    workers: { type: 'string', default: '10' },
    workloads: { type: 'string', default: '11' },
    'workload-seconds': { type: 'string', default: '180' },
    boot: { type: 'string', default: '90' },
    install: { type: 'string', default: '60' },
    price: { type: 'string', default: '0.096' },
    'ab-repeats': { type: 'string', default: '8' },
    'ab-lanes': { type: 'string', default: '1' },
  },
});
const workers = Number(flags.workers);
const workloads = Number(flags.workloads);

const moto = await startMoto();
const setupClient = moto.client();
const { ami, subnets, securityGroup } = await motoResources(setupClient);
setupClient.destroy();
const options = ec2Options({ ami, subnets: subnets.slice(0, 1), securityGroups: [securityGroup], instanceTypes: ['m5.large'], market: 'on-demand', prices: { 'm5.large': { onDemand: Number(flags.price) } } });

/** The simulated clock: an instance's agent answers boot + install after its RunInstances; workloads move it on. */
let clock = Date.parse('2026-12-03T02:00:00Z');
let runInstancesCalls = 0;
/** When each instance has booted and installed the target, on the simulated clock. */
const installedBy = new Map<string, number>();
function simulatedProvider() {
  const agent = fakeAgent();
  const status = agent.status;
  agent.status = async (host) => {
    // Instances boot and install in parallel: an agent answers once its own instance is installed.
    clock = Math.max(clock, installedBy.get(host.instanceId) ?? clock);
    return status(host);
  };
  return createEc2Provider({
    createClient: () => {
      const client = moto.client();
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const calledAt = clock;
          const result = await next(args);
          if (context.commandName === RunInstancesCommand.name) {
            runInstancesCalls++;
            const ready = calledAt + (Number(flags.boot) + Number(flags.install)) * 1000;
            for (const instance of (result.output as { Instances?: { InstanceId?: string }[] }).Instances ?? []) installedBy.set(instance.InstanceId!, ready);
          }
          return result;
        },
        { step: 'initialize', name: 'simulatedBoot' },
      );
      return client;
    },
    probe: async () => {},
    agent: () => agent,
    now: () => new Date(clock),
    sleep: async () => {},
    monitorIntervalMs: 3600_000,
  });
}

const shape = { workers, threadsPerWorker: 2, memoryPerWorker: 8 * 2 ** 30 };
const request = (runId: string) => ec2Request(options, { runId, shape, startTimeoutSeconds: 600 });
const runWorkload = () => void (clock += Number(flags['workload-seconds']) * 1000);

interface Tally {
  /** Seconds from the first lease to the last release, on the simulated clock. */
  wall: number;
  launches: number;
  calls: number;
  boot: number;
  total: number;
  cost: number;
}
const tally = (infos: ClusterInfo[], calls: number, from: number): Tally => {
  const sum = (key: string) => infos.reduce((s, i) => s + Number(i[key] ?? 0), 0);
  return { wall: (clock - from) / 1000, launches: sum('instancesLaunched'), calls, boot: sum('bootSeconds'), total: sum('instanceSeconds'), cost: sum('costUsd') };
};

// Before: a cluster (and its instances) per workload.
const beforeProvider = simulatedProvider();
let calls = runInstancesCalls;
let from = clock;
const beforeInfos: ClusterInfo[] = [];
for (let w = 0; w < workloads; w++) {
  const cluster = await beforeProvider.start(request(`before-${w}`), silentLog);
  runWorkload();
  await cluster.stop();
  beforeInfos.push(cluster.info());
}
const before = tally(beforeInfos, runInstancesCalls - calls, from);

// After: hosts leased once, fresh processes per workload.
calls = runInstancesCalls;
from = clock;
const lease: HostLease = await simulatedProvider().lease!(request('after'), silentLog);
for (let w = 0; w < workloads; w++) {
  const cluster = await lease.start(request('after'), silentLog);
  runWorkload();
  await cluster.stop();
}
await lease.release();
const after = tally([lease.info()], runInstancesCalls - calls, from);

/** An A/B's slots through runLanes and runSuite, leasing per slot (`perSlot`) or through each lane's pool. */
async function abTally(name: string, perSlot: boolean): Promise<Tally> {
  const provider = simulatedProvider();
  const suite = sleepySuite(options, 0);
  const groups = abGroups(['main', 'candidate'], true);
  const schedule = buildSchedule(groups, [{ suite: 'sleepy', workload: 'w' }], { repeats: Number(flags['ab-repeats']), blockSize: 1, order: 'blocks', seed: 1 });
  const callsBefore = runInstancesCalls;
  const started = clock;
  const infos: ClusterInfo[] = [];
  const released = await runLanes(schedule, Number(flags['ab-lanes']), { log: silentLog }, async (slot, _index, leases) => {
    const plan = sleepyPlan(suite, options, `${name}-${slot.group}`, [slot.workload], { first: slot.firstRepeat, count: slot.count }, { shape, startTimeoutSeconds: 600 });
    const summary = await runSuite(plan, { provider, sink: { recordRepeat: runWorkload }, log: silentLog, leases: perSlot ? undefined : leases });
    infos.push(...summary.clusters.filter((c) => c.lease));
  });
  return tally([...infos, ...released.map((r) => r.info)], runInstancesCalls - callsBefore, started);
}
const abBefore = await abTally('ab-before', true);
const abAfter = await abTally('ab-after', false);
await moto.stop();

function printTable(title: string, per: string, columns: Tally[]): void {
  const rows: [string, (n: Tally) => string][] = [
    [`${per} duration (s)`, (n) => n.wall.toFixed(0)],
    [`instances launched per ${per}`, (n) => String(n.launches)],
    [`RunInstances calls per ${per}`, (n) => String(n.calls)],
    ['boot + install instance-seconds', (n) => n.boot.toFixed(0)],
    ['instance-seconds after boot (workloads, idle)', (n) => (n.total - n.boot).toFixed(0)],
    ['boot + install share of instance time', (n) => `${((n.boot / n.total) * 100).toFixed(1)}%`],
    [`estimated cost per ${per} (USD)`, (n) => n.cost.toFixed(2)],
  ];
  console.log(title);
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`${''.padEnd(width)}  ${'before'.padStart(10)}  ${'after'.padStart(10)}`);
  for (const [label, cell] of rows) console.log(`${label.padEnd(width)}  ${columns.map((c) => cell(c).padStart(10)).join('  ')}`);
}
const hosts = `1 scheduler + ${workers} workers (m5.large on-demand at $${flags.price}/h), simulated boot ${flags.boot} s + install ${flags.install} s`;
printTable(`${workloads} workloads of ${flags['workload-seconds']} s on ${hosts}`, 'night', [before, after]);
console.log();
printTable(
  `A/B of 2 environments with A/A (A, A', B), ${flags['ab-repeats']} slots of ${flags['workload-seconds']} s a group on ${flags['ab-lanes']} lane(s), ${hosts}`,
  'A/B',
  [abBefore, abAfter],
);
