import path from 'node:path';
import { clusterError, firstLine, lastLines } from '../errors.js';
import type { Log } from '../log.js';
import { ManagedProcess, freePort, runCommand, waitForPort } from '../process/processes.js';
import { fillTemplate, type Cluster, type ClusterInfo, type ClusterRequest, type CommandSpec, type SampleTarget } from './types.js';

/**
 * A machine this process can start commands on: the local host, or a network namespace whose
 * commands go through a prefix such as `ip netns exec NAME`. Either way the process is visible
 * in this machine's /proc, so it can be sampled.
 */
export interface ProcessHost {
  name: string;
  address: string;
  prefix: string[];
}

export interface ProcessClusterLayout {
  provider: string;
  schedulerHost: ProcessHost;
  /** Worker i runs on workerHosts[i % length]. */
  workerHosts: ProcessHost[];
  /** Where client commands (ready, reset, workloads) run. */
  clientHost: ProcessHost;
  counters?: () => Promise<Record<string, number>>;
  info?: Record<string, unknown>;
}

/**
 * Starts the suite's scheduler and workers as processes on the given hosts, and stops every one
 * of them on stop(), whatever happened before; the hosts themselves are the caller's. Shared by
 * the local and netns providers.
 */
export async function startProcessCluster(request: ClusterRequest, layout: ProcessClusterLayout, log: Log): Promise<Cluster> {
  const started = Date.now();
  const deadline = started + request.startTimeoutSeconds * 1000;
  const logDir = path.join(request.workdir, 'logs');
  const processes: ManagedProcess[] = [];
  const reported = new Set<ManagedProcess>();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(processes.map((p) => p.stop()));
  };
  const launch = (name: string, host: ProcessHost, argv: string[]) => {
    // Recorded before its command runs: a runner killed at any moment leaves no unrecorded process.
    const onSpawn = (pid: number) => request.onLaunch?.({ name, pid });
    const child = new ManagedProcess(name, [...host.prefix, ...argv], { env: request.env, cwd: request.workdir, logDir, onSpawn });
    processes.push(child);
    return child;
  };

  try {
    const port = await freePort(layout.schedulerHost.prefix.length === 0 ? layout.schedulerHost.address : '127.0.0.1');
    const values = { ...request.placeholders, host: layout.schedulerHost.address, port: String(port), workdir: request.workdir };
    const schedulerAddress = fillTemplate([request.scheduler.address ?? 'tcp://{host}:{port}'], values)[0]!;
    const scheduler = launch('scheduler', layout.schedulerHost, fillTemplate(request.scheduler.command, { ...values, name: 'scheduler' }));
    log.debug(`scheduler starting at ${schedulerAddress}`);
    await waitForPort(layout.schedulerHost.address, port, deadline, () =>
      scheduler.exit ? `the scheduler exited during start-up: ${lastLines(scheduler.output, 3)}` : undefined,
    ).catch((error: unknown) => {
      throw clusterError(`${layout.provider} cluster: ${firstLine(error)}`, error);
    });
    for (let i = 0; i < request.shape.workers; i++) {
      const host = layout.workerHosts[i % layout.workerHosts.length]!;
      const name = `worker-${i + 1}`;
      const workerDir = path.join(request.workdir, name);
      launch(
        name,
        host,
        fillTemplate(request.worker.command, {
          ...request.placeholders,
          host: host.address,
          name,
          workdir: workerDir,
          scheduler_address: schedulerAddress,
          threads: String(request.shape.threadsPerWorker),
          memory_limit: String(request.shape.memoryPerWorker),
        }),
      );
    }
    const startupSeconds = (Date.now() - started) / 1000;
    return {
      provider: layout.provider,
      schedulerAddress,
      runCommand: (spec: CommandSpec) =>
        runCommand({
          ...spec,
          argv: [...layout.clientHost.prefix, ...spec.argv],
          env: { ...request.env, ...spec.env },
          onSpawn: (pid) => (spec.onSpawn?.(pid), request.onLaunch?.({ name: 'client', pid })),
        }),
      sampleTargets: (): SampleTarget[] =>
        processes.filter((p) => !p.exit).map((p) => ({ name: p.name, host: hostOf(p.name, layout), pid: p.pid })),
      takeExits: () => {
        const exits = processes.filter((p) => p.exit && !reported.has(p));
        for (const p of exits) reported.add(p);
        return exits.map((p) => `${p.name} exited (${p.exit!.signal ?? `code ${p.exit!.code}`}): ${lastLines(p.output)}`);
      },
      counters: layout.counters,
      info: (): ClusterInfo => ({ startupSeconds, hosts: [...new Set([layout.schedulerHost, ...layout.workerHosts].map((h) => h.name))], ...layout.info }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function hostOf(processName: string, layout: ProcessClusterLayout): string {
  if (processName === 'scheduler') return layout.schedulerHost.name;
  const index = Number(processName.split('-')[1]) - 1;
  return layout.workerHosts[index % layout.workerHosts.length]!.name;
}
