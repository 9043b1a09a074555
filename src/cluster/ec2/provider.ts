import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
import { NightbenchError, clusterError, firstLine } from '../../errors.js';
import type { Log } from '../../log.js';
import { guardSignals } from '../exit-guard.js';
import { runCommand, waitForPort } from '../processes.js';
import { fillTemplate, type Cluster, type ClusterInfo, type ClusterProvider, type ClusterRequest } from '../types.js';
import { createEc2Client, launchWithFallback, sleep, terminate, waitRunning, type Sleep } from './api.js';
import { ec2OptionsSchema, type Ec2Options } from './options.js';
import {
  estimateCostUsd,
  expiryOf,
  instanceTags,
  instanceValues,
  launchSlots,
  renderUserData,
  runInstancesInput,
  type LaunchedGroup,
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
  now(): Date;
  sleep: Sleep;
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
 * EC2 instances for the scheduler and each worker, launched with user-data that installs the
 * target and starts the suite's process; torn down on stop, on a failed start and on SIGINT or
 * SIGTERM, and reapable through their tags if this process dies harder than that.
 */
export function createEc2Provider(overrides: Partial<Ec2Dependencies> = {}): ClusterProvider {
  const deps: Ec2Dependencies = { createClient: createEc2Client, probe: schedulerPortProbe, now: () => new Date(), sleep, ...overrides };
  return {
    name: 'ec2',
    description: 'scheduler and workers on EC2 instances (spot with on-demand fallback), tagged, always terminated',
    optionsSchema: ec2OptionsSchema,
    start: (request, log) => startEc2Cluster(request, log, deps),
  };
}

export const ec2Provider = createEc2Provider();

async function startEc2Cluster(request: ClusterRequest, log: Log, deps: Ec2Dependencies): Promise<Cluster> {
  const options = request.options as Ec2Options;
  const startedAt = deps.now();
  const deadline = Date.now() + request.startTimeoutSeconds * 1000;
  const client = deps.createClient(options.region);
  const groups: (LaunchedGroup & { role: Role; instanceIds: string[] })[] = [];
  let stoppedAt: Date | undefined;
  let stopping: Promise<void> | undefined;

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      stoppedAt = deps.now();
      disarm();
      const instanceIds = groups.flatMap((g) => g.instanceIds);
      try {
        await terminate(client, instanceIds, deps);
        if (instanceIds.length > 0) log.info(`ec2: terminated ${instanceIds.join(', ')}`);
      } catch (error) {
        log.warn(`${firstLine(error)}; \`nightbench reap\` ends them once their time-to-live has passed`);
      } finally {
        client.destroy();
      }
    })();
    return stopping;
  };
  const disarm = guardSignals('ec2 cluster', stop, log);

  const expiresAt = expiryOf(startedAt, options.ttlMinutes);
  const slots = launchSlots(options);
  const setup = fillTemplate([options.setup], request.placeholders)[0]!;
  const launch = async (role: Role, count: number, argv: string[]): Promise<Instance[]> => {
    const tags = instanceTags({ runId: request.runId, repository: options.repository, role, expiresAt });
    const userData = renderUserData({ role, runId: request.runId, argv, env: request.env, setup, ttlMinutes: options.ttlMinutes });
    const launched = await launchWithFallback(
      client,
      slots,
      (slot, attempt) => runInstancesInput({ options, slot, role, count, userData, tags, clientToken: `${request.runId}-${role}-${attempt}` }),
      { sleep: deps.sleep, backoffSeconds: options.backoffSeconds, log, what: role === 'scheduler' ? 'scheduler' : `${count} workers` },
    );
    const instanceIds = launched.instances.map((i) => i.InstanceId).filter((id): id is string => id !== undefined);
    groups.push({ role, instanceType: launched.slot.instanceType, market: launched.slot.market, count: instanceIds.length, instanceIds });
    log.info(`ec2: launched ${role} ${instanceIds.join(', ')} (${launched.slot.instanceType} ${launched.slot.market} in ${launched.slot.subnetId})`);
    return waitRunning(client, instanceIds, deadline, deps);
  };

  try {
    const port = String(options.schedulerPort);
    const addressTemplate = [request.scheduler.address ?? 'tcp://{host}:{port}'];
    const [scheduler] = await launch(
      'scheduler',
      1,
      fillTemplate(request.scheduler.command, { ...request.placeholders, ...instanceValues, name: 'scheduler', port, workdir: `${remoteDir}/scheduler` }),
    );
    const privateIp = scheduler?.PrivateIpAddress;
    const clientIp = options.publicAddress ? scheduler?.PublicIpAddress : privateIp;
    if (!privateIp || !clientIp) throw new NightbenchError('aws', `ec2: the scheduler instance ${scheduler?.InstanceId ?? ''} has no ${options.publicAddress ? 'public' : 'private'} address`);
    const schedulerAddress = fillTemplate(addressTemplate, { ...request.placeholders, host: clientIp, port })[0]!;
    await launch(
      'worker',
      request.shape.workers,
      fillTemplate(request.worker.command, {
        ...request.placeholders,
        ...instanceValues,
        workdir: `${remoteDir}/${instanceValues.name}`,
        // Workers share the scheduler's network: they use its private address.
        scheduler_address: fillTemplate(addressTemplate, { ...request.placeholders, host: privateIp, port })[0]!,
        threads: String(request.shape.threadsPerWorker),
        memory_limit: String(request.shape.memoryPerWorker),
      }),
    );
    log.info(`ec2: waiting for the scheduler at ${schedulerAddress}`);
    await deps.probe({ schedulerAddress, workers: request.shape.workers, env: request.env, deadline }).catch((error: unknown) => {
      throw clusterError(`ec2 cluster: the scheduler at ${schedulerAddress} did not become ready: ${firstLine(error)}`, error);
    });
    const startupSeconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
    return {
      provider: 'ec2',
      schedulerAddress,
      // Client commands run here, against the scheduler's address; the instances run only the cluster.
      runCommand: (spec) => runCommand({ ...spec, env: { ...request.env, ...spec.env } }),
      // The processes run on the instances, out of this machine's /proc and process table.
      sampleTargets: () => [],
      takeExits: () => [],
      info: (): ClusterInfo => {
        const workers = groups.find((g) => g.role === 'worker');
        return {
          startupSeconds,
          region: options.region,
          instanceType: workers?.instanceType,
          market: workers?.market,
          workers: workers?.count,
          schedulerInstanceType: groups.find((g) => g.role === 'scheduler')?.instanceType,
          instanceIds: groups.flatMap((g) => g.instanceIds),
          // A live figure: the runner takes info() right after start and reads the cost after
          // stop, when it is the whole cluster's (it stops growing at stop).
          get costUsd() {
            return estimateCostUsd(groups, ((stoppedAt ?? deps.now()).getTime() - startedAt.getTime()) / 1000, options.prices);
          },
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
