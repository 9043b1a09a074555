import { describe, expect, it } from 'vitest';
import { netnsOptionsSchema } from '../../../src/cluster/netns/options.js';
import {
  counterMetrics,
  egressShapingCommands,
  subnetIndexesInUse,
  planNetwork,
  prerequisiteProblem,
  setupCommands,
  shapingCommands,
  staleResources,
  teardownCommands,
} from '../../../src/cluster/netns/plan.js';
import { validate } from '../../../src/validation.js';

const options = (raw: unknown = {}) => netnsOptionsSchema.parse(raw);

describe('planNetwork', () => {
  it('gives the scheduler, the client and each worker host a namespace, veth and address of their own', () => {
    const plan = planNetwork({ owner: 4242, subnetIndex: 7, workers: 2, options: options({ link: { bandwidthMbit: 100 }, hosts: { client: {} } }) });
    expect(plan.bridge).toBe('nbbr4242s7');
    expect(plan.bridgeAddress).toBe('10.213.7.1');
    expect(plan.hosts.map((h) => [h.name, h.namespace, h.hostVeth, h.address, h.link])).toEqual([
      ['scheduler', 'nb-4242s7-scheduler', 'n4242s7v0', '10.213.7.2', { bandwidthMbit: 100 }],
      ['client', 'nb-4242s7-client', 'n4242s7v1', '10.213.7.3', {}],
      ['worker-1', 'nb-4242s7-worker-1', 'n4242s7v2', '10.213.7.4', { bandwidthMbit: 100 }],
      ['worker-2', 'nb-4242s7-worker-2', 'n4242s7v3', '10.213.7.5', { bandwidthMbit: 100 }],
    ]);
    // Interface names must fit the kernel's 15 characters even for the largest pids.
    const big = planNetwork({ owner: 4_194_304, subnetIndex: 255, workers: 40, options: options() });
    expect(Math.max(...[big.bridge, ...big.hosts.map((h) => h.hostVeth)].map((n) => n.length))).toBeLessThanOrEqual(15);
  });

  it('shares worker hosts when asked, and rejects links for hosts it does not have', () => {
    expect(planNetwork({ owner: 1, subnetIndex: 0, workers: 8, options: options({ workerHosts: 2 }) }).hosts).toHaveLength(4);
    expect(() => planNetwork({ owner: 1, subnetIndex: 0, workers: 2, options: options({ hosts: { 'worker-3': {} } }) })).toThrow(
      /cluster\.options\.hosts: unknown host "worker-3"; this cluster has scheduler, client, worker-1, worker-2/,
    );
  });

  it('sets up the bridge, then each namespace with its veth end on the bridge, and tears down in reverse', () => {
    const plan = planNetwork({ owner: 9, subnetIndex: 3, workers: 1, options: options() });
    const commands = setupCommands(plan).map((argv) => argv.join(' '));
    expect(commands.slice(0, 10)).toEqual([
      'ip link add nbbr9s3 type bridge',
      'ip addr add 10.213.3.1/24 dev nbbr9s3',
      'ip link set nbbr9s3 up',
      'ip netns add nb-9s3-scheduler',
      'ip link add n9s3v0 type veth peer name eth0 netns nb-9s3-scheduler',
      'ip link set n9s3v0 master nbbr9s3',
      'ip link set n9s3v0 up',
      'ip -n nb-9s3-scheduler addr add 10.213.3.2/24 dev eth0',
      'ip -n nb-9s3-scheduler link set eth0 up',
      'ip -n nb-9s3-scheduler link set lo up',
    ]);
    expect(commands).toHaveLength(3 + 3 * 7);
    expect(teardownCommands(plan).map((argv) => argv.join(' '))).toEqual(['ip netns del nb-9s3-scheduler', 'ip netns del nb-9s3-client', 'ip netns del nb-9s3-worker-1', 'ip link del nbbr9s3']);
  });
});

describe('tc command lines', () => {
  it('puts netem at the root for delay, jitter and loss, with tbf under it for bandwidth', () => {
    expect(egressShapingCommands('eth0', { bandwidthMbit: 50, delayMs: 5, jitterMs: 1, lossPercent: 0.5 }, 'nb-1-worker-1')).toEqual([
      ['tc', '-n', 'nb-1-worker-1', 'qdisc', 'add', 'dev', 'eth0', 'root', 'handle', '1:', 'netem', 'limit', '100000', 'delay', '5ms', '1ms', 'loss', '0.5%'],
      ['tc', '-n', 'nb-1-worker-1', 'qdisc', 'add', 'dev', 'eth0', 'parent', '1:1', 'handle', '10:', 'tbf', 'rate', '50mbit', 'burst', '65536', 'latency', '100ms'],
    ]);
  });

  it('uses tbf alone for bandwidth, with a bucket of 10 ms at high rates, and nothing for an unshaped link', () => {
    expect(egressShapingCommands('nb1v2', { bandwidthMbit: 1000 })).toEqual([['tc', 'qdisc', 'add', 'dev', 'nb1v2', 'root', 'handle', '1:', 'tbf', 'rate', '1000mbit', 'burst', '1250000', 'latency', '100ms']]);
    expect(egressShapingCommands('eth0', {})).toEqual([]);
  });

  it('shapes bandwidth both ways but delays only what a host sends', () => {
    const [host] = planNetwork({ owner: 1, subnetIndex: 0, workers: 1, options: options({ link: { bandwidthMbit: 20, delayMs: 10 } }) }).hosts;
    expect(shapingCommands(host!).map((argv) => argv.join(' '))).toEqual([
      'tc -n nb-1s0-scheduler qdisc add dev eth0 root handle 1: netem limit 100000 delay 10ms',
      'tc -n nb-1s0-scheduler qdisc add dev eth0 parent 1:1 handle 10: tbf rate 20mbit burst 65536 latency 100ms',
      'tc qdisc add dev n1s0v0 root handle 1: tbf rate 20mbit burst 65536 latency 100ms',
    ]);
  });
});

describe('leftovers and subnets', () => {
  it('takes only resources of owners that no longer run for stale', () => {
    const alive = (pid: number) => pid === 100;
    expect(staleResources(['nb-100-scheduler', 'nb-200-scheduler', 'other', 'nb-x'], ['nbbr100', 'nbbr200', 'nb200v3', 'nb100v1', 'eth0', 'nbbrx'], alive)).toEqual({
      namespaces: ['nb-200-scheduler'],
      links: ['nbbr200', 'nb200v3'],
    });
    // Names that carry the subnet too.
    expect(staleResources(['nb-100s1-client', 'nb-200s4-client'], ['nbbr100s1', 'nbbr200s4', 'n200s4v0', 'n100s1v0'], alive)).toEqual({
      namespaces: ['nb-200s4-client'],
      links: ['nbbr200s4', 'n200s4v0'],
    });
  });

  it('knows which 10.213.X.0/24 the addresses take', () => {
    expect(subnetIndexesInUse(['127.0.0.1', '10.213.0.1', '10.213.1.1', '10.2.0.1', '10.213.1.7'])).toEqual(new Set([0, 1]));
  });
});

describe('counters and prerequisites', () => {
  it('sums hosts into cluster totals and keeps a key per host', () => {
    expect(counterMetrics([{ host: 'scheduler', sent: 10, received: 20 }, { host: 'worker-1', sent: 5, received: 1 }])).toEqual({
      network_bytes_sent: 15,
      network_bytes_received: 21,
      'network_bytes_sent.scheduler': 10,
      'network_bytes_received.scheduler': 20,
      'network_bytes_sent.worker-1': 5,
      'network_bytes_received.worker-1': 1,
    });
  });

  it.each([
    { facts: { uid: 1000, hasIp: true, hasTc: true, shaping: false }, problem: /needs root/ },
    { facts: { uid: 0, hasIp: false, hasTc: true, shaping: false }, problem: /the `ip` command is missing; install iproute2/ },
    { facts: { uid: 0, hasIp: true, hasTc: false, shaping: true }, problem: /link shaping needs the `tc` command/ },
    { facts: { uid: 0, hasIp: true, hasTc: false, shaping: false }, problem: undefined },
  ])('says what is missing: $facts', ({ facts, problem }) => {
    const found = prerequisiteProblem(facts);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });

  it('rejects jitter without delay, naming the key', () => {
    expect(() => validate(netnsOptionsSchema, { link: { jitterMs: 2 } }, 'cluster.options')).toThrow(/cluster\.options: link\.jitterMs: jitterMs needs delayMs/);
  });
});
