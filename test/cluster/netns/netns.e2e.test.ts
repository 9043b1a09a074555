import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { netnsProvider } from '../../../src/cluster/netns/provider.js';
import { defaultClaimDir } from '../../../src/cluster/netns/claim.js';
import type { Cluster, ClusterProvider, ClusterRequest } from '../../../src/cluster/types.js';
import type { RepeatRecord } from '../../../src/history/types.js';
import { runSuite } from '../../../src/runner/runner.js';
import { listWorkloads, loadSuite } from '../../../src/suite/suite.js';
import { repoRoot } from '../../helpers/cli.js';
import { silentLog } from '../../../src/log.js';
import { leftoverClusterProcesses } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { daskSuite as suite, netnsRequest } from './request.js';

const transferScript = fileURLToPath(new URL('./transfer.py', import.meta.url));
const megabytes = 30;
const bytes = megabytes * 1_000_000;

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });
const namespacesOf = (pid: number) => ip('netns', 'list').split('\n').filter((line) => line.startsWith(`nb-${pid}s`));
const ours = () => namespacesOf(process.pid);

let cluster: Cluster | undefined;
let workdir = '';
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
  expect(ours()).toEqual([]);
  expect(ip('-o', 'link', 'show')).not.toContain(`nbbr${process.pid}`);
  expect(leftoverClusterProcesses(workdir)).toEqual([]);
});

function request(options: unknown): ClusterRequest {
  const made = netnsRequest(options);
  workdir = made.workdir;
  return made;
}

/** Runs the transfer in the client's namespace; returns its seconds and the counter deltas. */
async function transfer(c: Cluster): Promise<{ seconds: number; delta: Record<string, number> }> {
  const before = await c.counters!();
  const result = await c.runCommand({
    argv: [suite.placeholders.python!, transferScript, String(bytes)],
    env: { NIGHTBENCH_SCHEDULER_ADDRESS: c.schedulerAddress },
    timeoutMs: 60_000,
  });
  expect(result.stderrTail).not.toMatch(/Traceback/);
  expect(result.exitCode).toBe(0);
  const after = await c.counters!();
  const delta = Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - (before[key] ?? 0)]));
  return { seconds: (JSON.parse(result.stdout) as { seconds: number }).seconds, delta };
}

function netemAvailable(): boolean {
  const probe = `nb-${process.pid}-netem-probe`;
  ip('netns', 'add', probe);
  try {
    execFileSync('tc', ['-n', probe, 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    ip('netns', 'del', probe);
  }
}

describe('netns provider with a Dask cluster', () => {
  let unlimitedSeconds = 0;

  it('runs scheduler, client and two worker hosts in namespaces, and counts the bytes each host moved', async () => {
    cluster = await netnsProvider.start(request({}), silentLog);
    expect(cluster.schedulerAddress).toMatch(/^tcp:\/\/10\.213\.\d+\.2:\d+$/);
    expect(ours().map((line) => line.split(' ')[0]!.replace(/^nb-\d+s\d+-/, '')).sort()).toEqual(['client', 'scheduler', 'worker-1', 'worker-2']);
    expect(cluster.sampleTargets().map((t) => `${t.name}@${t.host}`)).toEqual(['scheduler@scheduler', 'worker-1@worker-1', 'worker-2@worker-2']);
    const { seconds, delta } = await transfer(cluster);
    unlimitedSeconds = seconds;
    // The array leaves worker-1 and arrives at worker-2; the client gets back only an int.
    expect(delta['network_bytes_sent.worker-1']).toBeGreaterThanOrEqual(bytes);
    expect(delta['network_bytes_received.worker-2']).toBeGreaterThanOrEqual(bytes);
    expect(delta['network_bytes_sent.worker-1']).toBeLessThan(bytes * 1.1);
    expect(delta['network_bytes_received.worker-1']).toBeLessThan(bytes * 0.1);
    expect(delta['network_bytes_received.client']).toBeLessThan(bytes * 0.1);
    expect(delta.network_bytes_sent).toBeGreaterThanOrEqual(bytes);
    expect(delta.network_bytes_received).toBeGreaterThanOrEqual(bytes);
  });

  it('is measurably slower at 50 Mbit/s per host than unlimited', async () => {
    cluster = await netnsProvider.start(request({ link: { bandwidthMbit: 50 } }), silentLog);
    const { seconds } = await transfer(cluster);
    const atLineRate = (bytes * 8) / 50e6;
    expect(seconds).toBeGreaterThan(atLineRate * 0.8);
    expect(seconds).toBeGreaterThan(unlimitedSeconds * 2);
  });

  it('applies delay where the kernel has netem, and refuses it clearly where it has none', async () => {
    const start = netnsProvider.start(request({ link: { delayMs: 20 } }), silentLog);
    if (netemAvailable()) {
      cluster = await start;
      const ping = await cluster.runCommand({
        argv: [suite.placeholders.python!, '-c', `import socket,time,sys\nt=time.perf_counter()\nsocket.create_connection(("${new URL(cluster.schedulerAddress).hostname}", ${new URL(cluster.schedulerAddress).port}), timeout=5).close()\nprint(time.perf_counter()-t)`],
        env: {},
        timeoutMs: 10_000,
      });
      // A TCP handshake is one round trip: the client's and the scheduler's 20 ms each.
      expect(Number(ping.stdout)).toBeGreaterThan(0.035);
    } else {
      await expect(start).rejects.toThrow(/scheduler asks for delay, jitter or loss, which need the kernel's netem qdisc, and this kernel has none/);
    }
  });

  it('removes the namespaces and bridge of an earlier run that died', async () => {
    let dead = 4_000_000;
    while (isAlive(dead)) dead--;
    ip('netns', 'add', `nb-${dead}-worker-1`);
    ip('link', 'add', `nbbr${dead}`, 'type', 'bridge');
    cluster = await netnsProvider.start(request({}), silentLog);
    expect(ip('netns', 'list')).not.toContain(`nb-${dead}-`);
    expect(ip('-o', 'link', 'show')).not.toContain(`nbbr${dead}`);
  });
});

/** A child process holding a netns cluster, in a temporary folder of the test, until it gets a signal. */
async function holdCluster(): Promise<{ child: ChildProcess; started: { workdir: string; schedulerAddress: string }; stderr: () => string; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./hold-cluster.ts', import.meta.url))], {
    env: { ...process.env, NB_WORKDIR: tempDir('nb-netns-') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const started = await new Promise<{ workdir: string; schedulerAddress: string }>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as { workdir: string; schedulerAddress: string }));
    child.once('exit', () => reject(new Error(`the child exited before starting: ${stderr}`)));
  });
  return { child, started, stderr: () => stderr, exited };
}

/** How many cluster processes under `dir` /proc lists, waiting up to 10 s for at least `wanted`. */
async function clusterProcessesListed(dir: string, wanted: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let listed = leftoverClusterProcesses(dir).length;
  while (listed < wanted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    listed = leftoverClusterProcesses(dir).length;
  }
  return listed;
}

describe('netns teardown on SIGTERM', () => {
  it('removes the namespaces and every cluster process when the process gets SIGTERM', async () => {
    const { child, started, stderr, exited } = await holdCluster();
    workdir = started.workdir;
    expect(namespacesOf(child.pid!)).toHaveLength(4);
    // The scheduler and both workers, once /proc shows all three: on a loaded machine (a fresh-clone
    // CI run) one was not listed yet the moment the cluster answered, though it was there after.
    expect(await clusterProcessesListed(workdir, 3)).toBeGreaterThanOrEqual(3);
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(stderr()).toContain('SIGTERM: tearing down the netns cluster');
    expect(namespacesOf(child.pid!)).toEqual([]);
    expect(ip('-o', 'link', 'show')).not.toContain(`nbbr${child.pid}`);
  });

  it('gives two clusters started at the same moment from two processes distinct subnets, and tears both down', async () => {
    const holders = await Promise.all([holdCluster(), holdCluster()]);
    workdir = holders[0]!.started.workdir;
    const subnets = holders.map((h) => new URL(h.started.schedulerAddress).hostname.split('.').slice(0, 3).join('.'));
    expect(subnets[0]).toMatch(/^10\.213\.\d+$/);
    expect(subnets[0]).not.toBe(subnets[1]);
    for (const h of holders) expect(namespacesOf(h.child.pid!)).toHaveLength(4);
    for (const h of holders) h.child.kill('SIGTERM');
    expect(await Promise.all(holders.map((h) => h.exited))).toEqual(['SIGTERM', 'SIGTERM']);
    for (const h of holders) {
      expect(namespacesOf(h.child.pid!)).toEqual([]);
      expect(ip('-o', 'link', 'show')).not.toContain(`nbbr${h.child.pid}`);
      expect(leftoverClusterProcesses(h.started.workdir)).toEqual([]);
      expect(subnetClaimsOf(h.child.pid!)).toEqual([]);
    }
  });
});

describe('netns hosts leased once per run', () => {
  it('creates the namespaces once, and starts fresh processes on them for each workload', async () => {
    const tiny = loadSuite(path.join(repoRoot, 'test/fixtures/suites/tiny'));
    const made = netnsRequest({});
    workdir = made.workdir;
    const seen: string[][] = [];
    let leases = 0;
    const counting: ClusterProvider = {
      ...netnsProvider,
      lease: async (request, log) => {
        leases++;
        const lease = await netnsProvider.lease!(request, log);
        return {
          ...lease,
          start: async (r, l) => {
            seen.push(ours());
            return lease.start(r, l);
          },
        };
      },
    };
    const workloads = (await listWorkloads(tiny, {})).filter((w) => ['quick_sum', 'chunked_sum'].includes(w.name));
    const records: RepeatRecord[] = [];
    const summary = await runSuite(
      {
        runId: 'netns-lease',
        suite: tiny,
        workloads,
        repeats: 2,
        warmupRepeats: 1,
        timeLimitSeconds: 120,
        scale: 1,
        sampleIntervalSeconds: 0.25,
        cluster: { ...made, scheduler: tiny.file.processes.scheduler, worker: tiny.file.processes.worker, placeholders: tiny.placeholders },
        workdir: made.workdir,
      },
      { provider: counting, sink: { recordRepeat: (r) => records.push(r) }, log: silentLog },
    );
    // One warm-up on each workload's fresh cluster, recorded as such, before the measured repeats.
    expect(records.map((r) => `${r.workload}#${r.repeat}:${r.status}${r.warmup ? ' warm-up' : ''}`)).toEqual([
      'quick_sum#1:ok warm-up',
      'quick_sum#1:ok',
      'quick_sum#2:ok',
      'chunked_sum#1:ok warm-up',
      'chunked_sum#1:ok',
      'chunked_sum#2:ok',
    ]);
    expect(summary.repeats).toEqual({ ok: 4, failed: 0, timeout: 0, disturbed: 0 });
    expect(leases).toBe(1);
    // Each workload started its processes on the same four namespaces.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toHaveLength(4);
    expect(seen[1]).toEqual(seen[0]);
    // The processes differ: every workload's cluster had its own scheduler.
    const schedulers = summary.clusters.filter((c) => !c.lease);
    expect(schedulers).toHaveLength(2);
    expect(summary.clusters.filter((c) => c.lease)).toEqual([expect.objectContaining({ bridge: expect.stringMatching(new RegExp(`^nbbr${process.pid}s\\d+$`)) })]);
    expect(ours()).toEqual([]);
  });
});

const subnetClaimsOf = (pid: number) =>
  readdirSync(defaultClaimDir).filter((name) => {
    try {
      return readFileSync(path.join(defaultClaimDir, name), 'utf8') === String(pid);
    } catch {
      return false;
    }
  });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
