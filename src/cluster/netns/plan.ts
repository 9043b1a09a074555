import type { LinkShape, NetnsOptions } from './options.js';

/**
 * The pure half of the netns provider: names, addresses and the exact `ip` and `tc` command lines
 * of a run's network, and which leftovers of crashed runs to remove. Nothing here runs a command.
 *
 * Every name carries the pid of the process that made it, so a namespace of a live run is never
 * taken for a stale one, and the subnet's X, so two networks of one process never clash; everything
 * lives in 10.213.X.0/24 on a bridge of its own: traffic only goes between these namespaces and
 * the host side of that bridge.
 */

export const namespacePrefix = 'nb-';
const subnetBase = '10.213';

export interface NetnsHostPlan {
  /** The host's name in the cluster and in metric keys: scheduler, client, worker-1, ... */
  name: string;
  namespace: string;
  /** The host end of the veth pair, on the bridge; the namespace end is its eth0. */
  hostVeth: string;
  address: string;
  link: LinkShape;
}

export interface NetworkPlan {
  owner: number;
  bridge: string;
  bridgeAddress: string;
  hosts: NetnsHostPlan[];
}

export interface PlanInput {
  /** The pid of this process: part of every name, so stale leftovers can be told from live ones. */
  owner: number;
  /** X in 10.213.X.0/24, one not used by another live run. */
  subnetIndex: number;
  workers: number;
  options: NetnsOptions;
}

/** The scheduler's, the client's and each worker host's namespace, address and link. */
export function planNetwork(input: PlanInput): NetworkPlan {
  const workerHosts = input.options.workerHosts ?? input.workers;
  const names = ['scheduler', 'client', ...Array.from({ length: workerHosts }, (_, i) => `worker-${i + 1}`)];
  const unknown = Object.keys(input.options.hosts).filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`cluster.options.hosts: unknown host ${unknown.map((n) => `"${n}"`).join(', ')}; this cluster has ${names.join(', ')}`);
  const prefix = `${subnetBase}.${input.subnetIndex}`;
  // Interface names have at most 15 characters: "n" + a 7-digit pid + "s255" + "v99" fits.
  const tag = `${input.owner}s${input.subnetIndex}`;
  return {
    owner: input.owner,
    bridge: `nbbr${tag}`,
    bridgeAddress: `${prefix}.1`,
    hosts: names.map((name, i) => ({
      name,
      namespace: `${namespacePrefix}${tag}-${name}`,
      hostVeth: `n${tag}v${i}`,
      address: `${prefix}.${i + 2}`,
      link: input.options.hosts[name] ?? input.options.link,
    })),
  };
}

/** The bridge, then for each host: namespace, veth pair with its end on the bridge, addresses, links up. */
export function setupCommands(plan: NetworkPlan): string[][] {
  return [
    ['ip', 'link', 'add', plan.bridge, 'type', 'bridge'],
    ['ip', 'addr', 'add', `${plan.bridgeAddress}/24`, 'dev', plan.bridge],
    ['ip', 'link', 'set', plan.bridge, 'up'],
    ...plan.hosts.flatMap((host) => [
      ['ip', 'netns', 'add', host.namespace],
      ['ip', 'link', 'add', host.hostVeth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace],
      ['ip', 'link', 'set', host.hostVeth, 'master', plan.bridge],
      ['ip', 'link', 'set', host.hostVeth, 'up'],
      ['ip', '-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0'],
      ['ip', '-n', host.namespace, 'link', 'set', 'eth0', 'up'],
      ['ip', '-n', host.namespace, 'link', 'set', 'lo', 'up'],
    ]),
  ];
}

/** Whether a link needs the kernel's netem qdisc (anything beyond bandwidth). */
export function needsNetem(link: LinkShape): boolean {
  return link.delayMs !== undefined || link.jitterMs !== undefined || link.lossPercent !== undefined;
}

/**
 * tbf's bucket: at least 64 KiB (veth hands over segments that large) and 10 ms at the rate,
 * so the limit holds at the rate rather than below it.
 */
function tbfArgs(bandwidthMbit: number): string[] {
  const burstBytes = Math.max(65_536, Math.ceil((bandwidthMbit * 1e6) / 8 / 100));
  return ['tbf', 'rate', `${bandwidthMbit}mbit`, 'burst', String(burstBytes), 'latency', '100ms'];
}

/**
 * The `tc` argv that shape one device's egress: netem for delay, jitter and loss with tbf under
 * it for bandwidth, or tbf alone. `namespace` selects the namespace's device (tc -n).
 */
export function egressShapingCommands(device: string, link: LinkShape, namespace?: string): string[][] {
  const tc = namespace ? ['tc', '-n', namespace] : ['tc'];
  const commands: string[][] = [];
  if (needsNetem(link)) {
    const netem = ['netem', 'limit', '100000'];
    if (link.delayMs !== undefined) netem.push('delay', `${link.delayMs}ms`, ...(link.jitterMs !== undefined ? [`${link.jitterMs}ms`] : []));
    if (link.lossPercent !== undefined) netem.push('loss', `${link.lossPercent}%`);
    commands.push([...tc, 'qdisc', 'add', 'dev', device, 'root', 'handle', '1:', ...netem]);
    if (link.bandwidthMbit !== undefined) commands.push([...tc, 'qdisc', 'add', 'dev', device, 'parent', '1:1', 'handle', '10:', ...tbfArgs(link.bandwidthMbit)]);
  } else if (link.bandwidthMbit !== undefined) {
    commands.push([...tc, 'qdisc', 'add', 'dev', device, 'root', 'handle', '1:', ...tbfArgs(link.bandwidthMbit)]);
  }
  return commands;
}

/**
 * A host's whole link: what it sends leaves through its eth0 (delay, loss, bandwidth), what it
 * receives leaves the bridge through its host veth (bandwidth only, so delay counts once).
 */
export function shapingCommands(host: NetnsHostPlan): string[][] {
  const inbound = host.link.bandwidthMbit !== undefined ? { bandwidthMbit: host.link.bandwidthMbit } : {};
  return [...egressShapingCommands('eth0', host.link, host.namespace), ...egressShapingCommands(host.hostVeth, inbound)];
}

/** Deleting the namespaces takes their veth pairs with them; the bridge goes last. */
export function teardownCommands(plan: Pick<NetworkPlan, 'bridge' | 'hosts'>): string[][] {
  return [...plan.hosts.map((host) => ['ip', 'netns', 'del', host.namespace]), ['ip', 'link', 'del', plan.bridge]];
}

export interface StaleResources {
  namespaces: string[];
  links: string[];
}

/** Namespaces and links named by this provider whose owner process no longer runs. */
export function staleResources(namespaces: readonly string[], links: readonly string[], isAlive: (pid: number) => boolean): StaleResources {
  const dead = (match: RegExpMatchArray | null) => match !== null && !isAlive(Number(match[1]));
  return {
    namespaces: namespaces.filter((name) => dead(name.match(/^nb-(\d+)(?:s\d+)?-/))),
    links: links.filter((name) => dead(name.match(/^nbbr(\d+)(?:s\d+)?$/)) || dead(name.match(/^nb?(\d+)(?:s\d+)?v\d+$/))),
  };
}

/** The X of every 10.213.X.0/24 that an address in `used` (e.g. `ip -4 addr` output) takes. */
export function subnetIndexesInUse(usedAddresses: readonly string[]): Set<number> {
  return new Set(usedAddresses.map((a) => a.match(/^10\.213\.(\d+)\./)?.[1]).filter((x) => x !== undefined).map(Number));
}

export interface HostCounters {
  host: string;
  sent: number;
  received: number;
}

/** Per-host byte counters as metric values: cluster totals plus one key per host. */
export function counterMetrics(hosts: readonly HostCounters[]): Record<string, number> {
  const metrics: Record<string, number> = { network_bytes_sent: 0, network_bytes_received: 0 };
  for (const host of hosts) {
    metrics.network_bytes_sent! += host.sent;
    metrics.network_bytes_received! += host.received;
    metrics[`network_bytes_sent.${host.host}`] = host.sent;
    metrics[`network_bytes_received.${host.host}`] = host.received;
  }
  return metrics;
}

export interface Prerequisites {
  uid: number | undefined;
  hasIp: boolean;
  hasTc: boolean;
  shaping: boolean;
}

/** What keeps this machine from making namespaces, as one sentence; undefined when nothing does. */
export function prerequisiteProblem(facts: Prerequisites): string | undefined {
  if (facts.uid !== 0) return 'netns cluster: creating network namespaces needs root; run as root, or use cluster.provider "local"';
  if (!facts.hasIp) return 'netns cluster: the `ip` command is missing; install iproute2 (apt-get install -y iproute2)';
  if (facts.shaping && !facts.hasTc) return 'netns cluster: link shaping needs the `tc` command, which is missing; install iproute2 (apt-get install -y iproute2)';
  return undefined;
}
