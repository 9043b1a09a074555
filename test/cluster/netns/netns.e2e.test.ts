import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { netnsProvider } from '../../../src/cluster/netns/provider.js';
import type { Cluster, ClusterRequest } from '../../../src/cluster/types.js';
import { silentLog } from '../../../src/log.js';
import { leftoverClusterProcesses } from '../../helpers/processes.js';
import { daskSuite as suite, netnsRequest } from './request.js';

const transferScript = fileURLToPath(new URL('./transfer.py', import.meta.url));
const megabytes = 30;
const bytes = megabytes * 1_000_000;

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });
const namespacesOf = (pid: number) => ip('netns', 'list').split('\n').filter((line) => line.startsWith(`nb-${pid}-`));
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
    expect(ours().map((line) => line.split(' ')[0]).sort()).toEqual(['client', 'scheduler', 'worker-1', 'worker-2'].map((h) => `nb-${process.pid}-${h}`));
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

describe('netns teardown on SIGTERM', () => {
  it('removes the namespaces and every cluster process when the process gets SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./hold-cluster.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const started = await new Promise<{ workdir: string }>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as { workdir: string }));
      child.once('exit', () => reject(new Error(`the child exited before starting: ${stderr}`)));
    });
    workdir = started.workdir;
    expect(namespacesOf(child.pid!)).toHaveLength(4);
    expect(leftoverClusterProcesses(workdir).length).toBeGreaterThanOrEqual(3);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(stderr).toContain('SIGTERM: tearing down the netns cluster');
    expect(namespacesOf(child.pid!)).toEqual([]);
    expect(ip('-o', 'link', 'show')).not.toContain(`nbbr${child.pid}`);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
