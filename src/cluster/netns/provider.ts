import { readFile } from 'node:fs/promises';
import { clusterError, configError, firstLine } from '../../errors.js';
import type { Log } from '../../log.js';
import { guardSignals } from '../exit-guard.js';
import { startProcessCluster, type ProcessHost } from '../process-cluster.js';
import { processIsAlive, runCommand } from '../../process/processes.js';
import { startOnOwnLease, type ClusterProvider, type ClusterRequest, type HostLease } from '../types.js';
import { claimSubnet } from './claim.js';
import { netnsOptionsSchema, type NetnsOptions } from './options.js';
import {
  counterMetrics,
  planNetwork,
  prerequisiteProblem,
  setupCommands,
  shapingCommands,
  staleResources,
  subnetIndexesInUse,
  teardownCommands,
  type NetnsHostPlan,
  type NetworkPlan,
} from './plan.js';

/**
 * Hosts in Linux network namespaces on a bridge of their own, with shaped links: the scheduler,
 * each worker host and the client each in a namespace, so every byte between them crosses a real
 * network stack. The network is leased once per run; each workload's processes are started as for
 * `local`, through `ip netns exec`.
 */
export const netnsProvider: ClusterProvider = {
  name: 'netns',
  description: 'scheduler, workers and client in Linux network namespaces with shaped links (tc tbf, netem where the kernel has it)',
  optionsSchema: netnsOptionsSchema,
  start: async (request, log) => startOnOwnLease(await leaseNetwork(request, log), request, log),
  lease: leaseNetwork,
};

/** The namespaces, veths and bridge, made once; released (with whatever still runs inside) on release(). */
export async function leaseNetwork(request: ClusterRequest, log: Log, claimDir?: string): Promise<HostLease> {
  const options = request.options as NetnsOptions;
  const shaping = [options.link, ...Object.values(options.hosts)].some((link) => Object.keys(link).length > 0);
  const problem = prerequisiteProblem({ uid: process.getuid?.(), hasIp: await runs(['ip', '-V']), hasTc: await runs(['tc', '-V']), shaping });
  if (problem) throw clusterError(problem);
  await removeStale(log);
  const claim = claimSubnet(subnetIndexesInUse(await ipv4Addresses()), { dir: claimDir });
  let plan: NetworkPlan;
  try {
    plan = planNetwork({ owner: process.pid, subnetIndex: claim.index, workers: request.shape.workers, options });
  } catch (error) {
    claim.release();
    throw configError(firstLine(error));
  }
  const started = Date.now();
  let removing: Promise<void> | undefined;
  const remove = () => (removing ??= removeNetwork(plan, log).finally(() => claim.release()));
  const disarm = guardSignals('netns cluster', remove, log);
  const release = async () => {
    disarm();
    await remove();
  };
  try {
    for (const argv of setupCommands(plan)) await sh(argv);
    for (const host of plan.hosts) await shape(host);
  } catch (error) {
    await release();
    throw error;
  }
  const setupSeconds = (Date.now() - started) / 1000;
  log.debug(`netns: ${plan.hosts.map((h) => `${h.name} ${h.address}`).join(', ')} on ${plan.bridge}`);
  const [schedulerHost, clientHost, ...workerHosts] = plan.hosts.map(processHost);
  const links = Object.fromEntries(plan.hosts.map((h) => [h.name, h.link]));
  return {
    start: (workload, workloadLog) =>
      startProcessCluster(
        workload,
        { provider: 'netns', schedulerHost: schedulerHost!, clientHost: clientHost!, workerHosts, counters: () => readCounters(plan), info: { links } },
        workloadLog,
      ),
    info: () => ({ startupSeconds: setupSeconds, bridge: plan.bridge, subnet: `10.213.${claim.index}.0/24`, namespaces: plan.hosts.map((h) => h.namespace) }),
    release,
  };
}

const processHost = (host: NetnsHostPlan): ProcessHost => ({ name: host.name, address: host.address, prefix: ['ip', 'netns', 'exec', host.namespace] });

async function runs(argv: string[]): Promise<boolean> {
  return (await runCommand({ argv, env: {}, timeoutMs: 10_000 })).exitCode === 0;
}

/** Runs one `ip`/`tc` command; a failure names the command and what it said. */
async function sh(argv: string[]): Promise<string> {
  const result = await runCommand({ argv, env: {}, timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw clusterError(`netns cluster: \`${argv.join(' ')}\` failed: ${firstLine(result.stderrTail.trim()) || `exit ${result.exitCode ?? result.signal}`}`);
  return result.stdout;
}

async function shape(host: NetnsHostPlan): Promise<void> {
  for (const argv of shapingCommands(host)) {
    try {
      await sh(argv);
    } catch (error) {
      if (argv.includes('netem') && /unknown/i.test(firstLine(error))) {
        throw clusterError(
          `netns cluster: ${host.name} asks for delay, jitter or loss, which need the kernel's netem qdisc, and this kernel has none (tc: "Specified qdisc kind is unknown"); ` +
            'drop delayMs/jitterMs/lossPercent from cluster.options (bandwidth works without netem) or run where sch_netem exists (e.g. GitHub-hosted Ubuntu runners)',
          error,
        );
      }
      throw error;
    }
  }
}

/** Kills whatever still runs in the namespaces, deletes them (their veths go too), then the bridge. */
async function removeNetwork(plan: Pick<NetworkPlan, 'bridge' | 'hosts'>, log: Log): Promise<void> {
  for (const host of plan.hosts) await killInside(host.namespace);
  for (const argv of teardownCommands(plan)) {
    await sh(argv).catch((error: unknown) => {
      if (!/cannot find|no such|not exist/i.test(firstLine(error))) log.warn(firstLine(error));
    });
  }
}

async function killInside(namespace: string): Promise<void> {
  const pids = await sh(['ip', 'netns', 'pids', namespace]).catch(() => '');
  for (const pid of pids.split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Removes what runs that died without their teardown left behind: namespaces, bridges, veths. */
async function removeStale(log: Log): Promise<void> {
  const namespaces = (await sh(['ip', 'netns', 'list'])).split('\n').map((line) => line.split(' ')[0] ?? '').filter(Boolean);
  const links = (await sh(['ip', '-o', 'link', 'show'])).split('\n').map((line) => line.split(': ')[1]?.split('@')[0] ?? '').filter(Boolean);
  const stale = staleResources(namespaces, links, processIsAlive);
  if (stale.namespaces.length + stale.links.length === 0) return;
  log.warn(`netns: removing leftovers of an earlier run that died: ${[...stale.namespaces, ...stale.links].join(', ')}`);
  for (const namespace of stale.namespaces) await killInside(namespace);
  for (const argv of [...stale.namespaces.map((ns) => ['ip', 'netns', 'del', ns]), ...stale.links.map((link) => ['ip', 'link', 'del', link])]) {
    // A veth goes with its namespace or its peer; only what is still there matters.
    await sh(argv).catch(() => undefined);
  }
}

async function ipv4Addresses(): Promise<string[]> {
  const out = await sh(['ip', '-o', '-4', 'addr', 'show']);
  return [...out.matchAll(/inet (\d+\.\d+\.\d+\.\d+)/g)].map((m) => m[1]!);
}

/** The host end of a veth counts the other way round: what it receives, its namespace sent. */
async function readCounters(plan: NetworkPlan): Promise<Record<string, number>> {
  const read = async (device: string, counter: string) => Number(await readFile(`/sys/class/net/${device}/statistics/${counter}`, 'utf8'));
  return counterMetrics(
    await Promise.all(plan.hosts.map(async (host) => ({ host: host.name, sent: await read(host.hostVeth, 'rx_bytes'), received: await read(host.hostVeth, 'tx_bytes') }))),
  );
}
