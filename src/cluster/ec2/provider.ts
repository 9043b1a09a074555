import { randomUUID } from 'node:crypto';
import type { EC2Client } from '@aws-sdk/client-ec2';
import { NightbenchError, clusterError, firstLine } from '../../errors.js';
import type { Log } from '../../log.js';
import { guardSignals } from '../exit-guard.js';
import { runCommand, waitForPort } from '../../process/processes.js';
import { httpAgent, newAgentToken, agentScript, type HostAgent } from './agent.js';
import { fillTemplate, startOnOwnLease, type Cluster, type ClusterInfo, type ClusterProvider, type ClusterRequest, type HostLease } from '../types.js';
import { createEc2Client, describeStates, launchWithFallback, setTag, sleep, terminate, waitRunning, type Sleep } from './api.js';
import { heartbeatIntervalMs, startHeartbeat } from './heartbeat.js';
import { ec2OptionsSchema, type Ec2Options } from './options.js';
import { leaseInfo, type LeasedInstance } from './lease-info.js';
import {
  expiryOf,
  instanceTags,
  launchSlots,
  renderUserData,
  runInstancesInput,
  tagKeys,
  type Role,
} from './plan.js';

/** Where the cluster is to be reached, and how many workers it should report, by when. */
export interface ReadinessTarget {
  schedulerAddress: string;
  workers: number;
  env: Record<string, string>;
  deadline: number;
}

/** Resolves once the scheduler answers at its address; rejects with the reason at the deadline. */
export type ReadinessProbe = (target: ReadinessTarget) => Promise<void>;

export interface Ec2Dependencies {
  createClient(region: string): EC2Client;
  probe: ReadinessProbe;
  /** How the runner reaches each instance's agent; by default over HTTP with the run's token. */
  agent(token: string, port: number): HostAgent;
  now(): Date;
  sleep: Sleep;
  /** How often a running cluster's hosts are checked (state, spot notice, processes). */
  monitorIntervalMs: number;
  /** How often a held lease pushes its hosts' expiry forward; by default from ttlMinutes (heartbeat.ts). */
  heartbeatIntervalMs?: number;
}

/**
 * The default probe: the scheduler accepts connections from this machine. That the scheduler
 * reports every worker is then the suite's `ready` command, which the runner runs right after
 * start on every provider (for EC2, on this machine, within cluster.startTimeoutSeconds).
 */
export const schedulerPortProbe: ReadinessProbe = async (target) => {
  const url = new URL(target.schedulerAddress);
  await waitForPort(url.hostname, Number(url.port), target.deadline, () => undefined);
};

const remoteDir = '/var/lib/nightbench';

/**
 * EC2 instances for the scheduler and each worker, leased once per run: launched with user-data
 * that installs the target and starts the nightbench agent, then each workload's scheduler and
 * workers are started fresh on them through the agent. Torn down on release, on a failed lease, on
 * SIGINT or SIGTERM, and reapable through their tags (and their own shutdown timer) if this process
 * dies harder than that.
 */
export function createEc2Provider(overrides: Partial<Ec2Dependencies> = {}): ClusterProvider {
  const deps: Ec2Dependencies = { createClient: createEc2Client, probe: schedulerPortProbe, agent: httpAgent, now: () => new Date(), sleep, monitorIntervalMs: 5000, ...overrides };
  return {
    name: 'ec2',
    description: 'scheduler and workers on EC2 instances (spot with on-demand fallback) leased once per run, tagged, always terminated',
    optionsSchema: ec2OptionsSchema,
    start: async (request, log) => startOnOwnLease(await leaseEc2Hosts(request, log, deps), request, log),
    lease: (request, log) => leaseEc2Hosts(request, log, deps),
  };
}

export const ec2Provider = createEc2Provider();

async function leaseEc2Hosts(request: ClusterRequest, log: Log, deps: Ec2Dependencies): Promise<HostLease> {
  const options = request.options as Ec2Options;
  const client = deps.createClient(options.region);
  const token = newAgentToken();
  // In the idempotency token, tells this lease's launches from another lease's of the same run (two
  // A/B lanes): with the run id alone, EC2 would hand the second lease the first one's instances.
  const leaseNonce = randomUUID().slice(0, 8);
  const agent = deps.agent(token, options.agentPort);
  const instances: LeasedInstance[] = [];
  const launches: Record<Role, number> = { scheduler: 0, worker: 0 };
  let releasing: Promise<void> | undefined;

  const release = (): Promise<void> => {
    releasing ??= (async () => {
      disarm();
      await heartbeat.stop();
      const live = instances.filter((i) => !i.endedAt);
      try {
        await terminate(client, live.map((i) => i.instanceId), deps);
        for (const instance of live) instance.endedAt = deps.now();
        if (live.length > 0) log.info(`ec2: terminated ${live.map((i) => i.instanceId).join(', ')}`);
      } catch (error) {
        log.warn(`${firstLine(error)}; \`nightbench reap\` ends them once their time-to-live has passed`);
      } finally {
        client.destroy();
      }
    })();
    return releasing;
  };
  const disarm = guardSignals('ec2 cluster', release, log);
  // While the lease is held its hosts' expiry moves forward: the tag the reaper reads and each host's own shutdown.
  const heartbeat = startHeartbeat(
    deps.heartbeatIntervalMs ?? heartbeatIntervalMs(options.ttlMinutes),
    async () => {
      const held = instances.filter((i) => !i.endedAt);
      await setTag(client, held.map((i) => i.instanceId), { Key: tagKeys.expiresAt, Value: expiryOf(deps.now(), options.ttlMinutes).toISOString() }, deps);
      await Promise.all(held.filter((i) => i.readyAt).map((i) => agent.extend(i, options.ttlMinutes)));
    },
    log,
  );

  const slots = launchSlots(options);
  const setup = fillTemplate([options.setup], request.placeholders)[0]!;
  const agentArgv = [request.placeholders.python ?? 'python3', '-c', agentScript];
  const agentEnv = { ...request.env, NIGHTBENCH_AGENT_TOKEN: token, NIGHTBENCH_AGENT_PORT: String(options.agentPort) };

  /** Launches `count` hosts of a role, waits until they run and their agents answer. */
  const launch = async (role: Role, count: number, deadline: number): Promise<LeasedInstance[]> => {
    launches[role]++;
    // From its own launch: a replacement host gets a whole time-to-live, not what is left of the lease's.
    const tags = instanceTags({ runId: request.runId, repository: options.repository, role, expiresAt: expiryOf(deps.now(), options.ttlMinutes) });
    const userData = renderUserData({ role, runId: request.runId, argv: agentArgv, env: agentEnv, setup, ttlMinutes: options.ttlMinutes });
    const launchedAt = deps.now();
    const launched = await launchWithFallback(
      client,
      slots,
      (slot, attempt) => runInstancesInput({ options, slot, role, count, userData, tags, clientToken: `${request.runId}-${leaseNonce}-${role}-${launches[role]}-${attempt}` }),
      { sleep: deps.sleep, backoffSeconds: options.backoffSeconds, log, what: role === 'scheduler' ? 'scheduler' : `${count} workers` },
    );
    const ids = launched.instances.map((i) => i.InstanceId).filter((id): id is string => id !== undefined);
    const pending = ids.map((instanceId) => ({ instanceId, role, address: '', privateIp: '', instanceType: launched.slot.instanceType, market: launched.slot.market, launchedAt }));
    instances.push(...pending);
    log.info(`ec2: launched ${role} ${ids.join(', ')} (${launched.slot.instanceType} ${launched.slot.market} in ${launched.slot.subnetId})`);
    for (const described of await waitRunning(client, ids, deadline, deps)) {
      const instance = pending.find((i) => i.instanceId === described.InstanceId)!;
      instance.privateIp = described.PrivateIpAddress ?? '';
      instance.address = (options.publicAddress ? described.PublicIpAddress : described.PrivateIpAddress) ?? '';
      if (!instance.privateIp || !instance.address) throw new NightbenchError('aws', `ec2: the ${role} instance ${instance.instanceId} has no ${options.publicAddress ? 'public' : 'private'} address`);
    }
    await Promise.all(pending.map((instance) => waitForAgent(instance, deadline)));
    return pending;
  };
  const waitForAgent = async (instance: LeasedInstance, deadline: number): Promise<void> => {
    for (;;) {
      try {
        await agent.status(instance);
        instance.readyAt = deps.now();
        return;
      } catch (error) {
        if (Date.now() >= deadline) throw clusterError(`ec2: the agent on ${instance.instanceId} did not answer in time (the target's install may have failed; see /var/log/nightbench-${instance.role}.log there): ${firstLine(error)}`, error);
        await deps.sleep(2000);
      }
    }
  };
  const live = (role: Role) => instances.filter((i) => i.role === role && !i.endedAt);

  /**
   * Hosts that stopped running since the last look, or that carry a spot interruption notice (EC2
   * takes them within two minutes), are marked ended and replaced before the next cluster starts.
   */
  const replaceLost = async (deadline: number): Promise<void> => {
    const states = await describeStates(client, instances.filter((i) => !i.endedAt).map((i) => i.instanceId), deps);
    for (const instance of instances) {
      if (instance.endedAt) continue;
      const state = states.get(instance.instanceId);
      const notice = state === 'running' ? (await agent.status(instance).catch(() => undefined))?.interruption : undefined;
      if (state === 'running' && notice === undefined) continue;
      instance.endedAt = deps.now();
      log.warn(`ec2: ${instance.role} host ${instance.instanceId} ${notice === undefined ? `is ${state ?? 'gone'}` : `has a spot interruption notice (${notice})`}; launching a replacement`);
      await terminate(client, [instance.instanceId], deps).catch(() => undefined);
    }
    for (const [role, wanted] of [['scheduler', 1], ['worker', request.shape.workers]] as const) {
      const missing = wanted - live(role).length;
      if (missing > 0) await launch(role, missing, deadline);
    }
  };

  const start = async (workload: ClusterRequest, workloadLog: Log): Promise<Cluster> => {
    const started = deps.now();
    const deadline = Date.now() + workload.startTimeoutSeconds * 1000;
    await replaceLost(deadline);
    const [scheduler] = live('scheduler');
    const workers = live('worker');
    const port = String(options.schedulerPort);
    const addressTemplate = [workload.scheduler.address ?? 'tcp://{host}:{port}'];
    const schedulerAddress = fillTemplate(addressTemplate, { ...workload.placeholders, host: scheduler!.address, port })[0]!;
    const messages: string[] = [];
    /** Hosts lost or reclaimed, not yet taken: a repeat that fails meanwhile is the machine's failure. */
    const losses: string[] = [];
    const noted = new Set<string>();
    const note = (message: string, hostLost = false) => {
      if (noted.has(message)) return;
      noted.add(message);
      messages.push(message);
      if (hostLost) losses.push(message);
    };
    const hosts = [scheduler!, ...workers];
    const stopProcesses = () => Promise.all(hosts.map((h) => agent.stopAll(h).catch(() => undefined)));
    try {
      await agent.start(scheduler!, 'scheduler', fillTemplate(workload.scheduler.command, { ...workload.placeholders, host: scheduler!.privateIp, port, name: 'scheduler', workdir: `${remoteDir}/scheduler` }), workload.env);
      const workersAddress = fillTemplate(addressTemplate, { ...workload.placeholders, host: scheduler!.privateIp, port })[0]!;
      await Promise.all(
        workers.map((host, i) =>
          agent.start(
            host,
            `worker-${i + 1}`,
            fillTemplate(workload.worker.command, {
              ...workload.placeholders,
              host: host.privateIp,
              name: `worker-${i + 1}`,
              workdir: `${remoteDir}/worker-${i + 1}`,
              // Workers share the scheduler's network: they use its private address.
              scheduler_address: workersAddress,
              threads: String(workload.shape.threadsPerWorker),
              memory_limit: String(workload.shape.memoryPerWorker),
            }),
            workload.env,
          ),
        ),
      );
      workloadLog.info(`ec2: waiting for the scheduler at ${schedulerAddress}`);
      await deps.probe({ schedulerAddress, workers: workload.shape.workers, env: workload.env, deadline }).catch((error: unknown) => {
        throw clusterError(`ec2 cluster: the scheduler at ${schedulerAddress} did not become ready: ${firstLine(error)}`, error);
      });
    } catch (error) {
      await stopProcesses();
      throw error;
    }
    // A host that leaves `running`, a spot interruption notice or a process that ends: the repeat is disturbed.
    const check = async () => {
      const states = await describeStates(client, hosts.map((h) => h.instanceId), deps).catch(() => undefined);
      for (const host of hosts) {
        const state = states?.get(host.instanceId);
        if (states && state !== 'running') {
          note(`${host.role} host ${host.instanceId} left running (${state ?? 'gone'})`, true);
          continue;
        }
        const status = await agent.status(host).catch(() => undefined);
        if (status?.interruption) note(`spot interruption notice for ${host.role} host ${host.instanceId}: ${status.interruption}`, true);
        for (const [name, code] of Object.entries(status?.exited ?? {})) note(`${name} on ${host.instanceId} exited (code ${code})`);
      }
    };
    let checking: Promise<void> = Promise.resolve();
    const monitor = setInterval(() => (checking = checking.then(check)), deps.monitorIntervalMs);
    const startupSeconds = (deps.now().getTime() - started.getTime()) / 1000;
    let stopping: Promise<void> | undefined;
    return {
      provider: 'ec2',
      schedulerAddress,
      // Client commands run here, against the scheduler's address; the instances run only the cluster.
      runCommand: (spec) => runCommand({ ...spec, env: { ...workload.env, ...spec.env } }),
      // The processes run on the instances, out of this machine's /proc and process table.
      sampleTargets: () => [],
      takeExits: () => messages.splice(0),
      // A repeat may end (its client failing at once) before the monitor's next look: look now.
      takeHostLosses: async () => {
        await (checking = checking.then(check));
        return losses.splice(0);
      },
      info: (): ClusterInfo => ({ startupSeconds, workers: workers.length, instanceIds: hosts.map((h) => h.instanceId) }),
      stop: () =>
        (stopping ??= (async () => {
          clearInterval(monitor);
          await checking;
          await stopProcesses();
        })()),
    };
  };

  // Workers no longer need the scheduler's address at boot (their processes start later, through
  // the agent), so all hosts boot at once; both launches settle before a failure releases them.
  const deadline = Date.now() + request.startTimeoutSeconds * 1000;
  const launched = await Promise.allSettled([launch('scheduler', 1, deadline), launch('worker', request.shape.workers, deadline)]);
  const failed = launched.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) {
    await release();
    throw failed.reason;
  }
  return {
    start,
    info: () => leaseInfo(instances, { options, workers: request.shape.workers, launches, now: deps.now() }),
    release,
  };
}
