import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Cluster, ClusterInfo, ClusterProvider, ClusterRequest } from '../cluster/types.js';
import { HostTroubleError, fillTemplate } from '../cluster/types.js';
import { firstLine, lastLines } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { MetricValue, RepeatFailure, RepeatRecord, RepeatStatus, RunProcess } from '../history/types.js';
import { clusterFailure, failureCauses, repeatFailure } from './failure-causes.js';
import type { Log } from '../log.js';
import { workloadMetricsSchema, type Workload } from '../suite/schema.js';
import type { Suite } from '../suite/suite.js';
import { LeasePool, type ClusterHosts, type ReleasedLease } from './lease-pool.js';
import { processRecorder, type ProcessLedger } from './leftovers.js';
import { summarizeUsage } from './sample-summary.js';
import { Sampler } from './sampler.js';

/** Where each repeat's record goes: the history store, or anything else in tests. */
export interface RepeatSink {
  recordRepeat(record: RepeatRecord): void;
  /** The process groups the run's clusters start, so a later start can end them if this run dies. */
  recordProcess?(process: RunProcess): void;
  /** A workload the target's version cannot run: recorded instead of its repeats. */
  recordUnsupported?(record: { runId: string; workload: string; workloadVersion: string; reason: string }): void;
}

/** The history as a run's sink: repeats and unsupported workloads to its runs, process groups to its process ledger. */
export function historySink(store: Pick<HistoryStore, 'runs' | 'processes'>): Required<RepeatSink> {
  return {
    recordRepeat: (record) => store.runs.recordRepeat(record),
    recordProcess: (process) => store.processes.recordProcess(process),
    recordUnsupported: (record) => store.runs.recordUnsupported(record),
  };
}

export interface RunPlan {
  runId: string;
  suite: Suite;
  workloads: Workload[];
  repeats: number;
  /**
   * Repeats run on each fresh cluster before the measured ones, for what cannot be made alike
   * between a cluster that just started and one that already ran; recorded as warm-ups only.
   */
  warmupRepeats?: number;
  /** Number of the first repeat (default 1): an A/B runs one slot of repeats at a time, interleaved. */
  firstRepeat?: number;
  timeLimitSeconds: number;
  scale: number;
  sampleIntervalSeconds: number;
  /** The cluster every workload gets (a fresh one each). */
  cluster: Omit<ClusterRequest, 'workdir'>;
  workdir: string;
  /**
   * Retry a workload's repeat that failed for the machine's sake (its cluster did not start, no
   * capacity for a host, a host lost under it) once, on a fresh cluster, while this returns true
   * (the night's time budget allows one more repeat).
   * Unset: never (an A/B slot or a bisect step numbers its repeats itself).
   */
  retryInfrastructure?: () => boolean;
}

export interface RunSummary {
  repeats: Record<RepeatStatus, number>;
  /** Workloads the target's version cannot run (none run, none failed). */
  unsupported?: string[];
  /** What the clusters (and the leased hosts they ran on) said about themselves: start-up time, cost. */
  clusters: ReturnType<Cluster['info']>[];
}

const clientTimeoutMs = 120_000;

/** Hosts a pool leased for a run and gave back, as a summary of no repeats: the run's cost and launches. */
export function leaseSummary(info: ClusterInfo): RunSummary {
  return { repeats: { ok: 0, failed: 0, timeout: 0, disturbed: 0 }, clusters: [info] };
}

/**
 * Runs every workload R times. Each workload gets a fresh cluster (isolation between workloads)
 * and a worker restart before every repeat after the first (isolation between repeats). One
 * workload failing never stops the others; a failed repeat is recorded as failed, never as a value.
 * A provider that leases hosts (EC2, netns) gets them once for the whole suite, and each fresh
 * cluster is fresh processes on them. Without `leases` the hosts are released on every way out of
 * here; with them (calls that share hosts: A/B slots, bisect repeats) the pool's owner releases
 * them, under the key `plan.runId`.
 */
export async function runSuite(plan: RunPlan, deps: { provider: ClusterProvider; sink: RepeatSink; log: Log; signal?: AbortSignal; leases?: LeasePool }): Promise<RunSummary> {
  const pool = deps.leases ?? new LeasePool(deps.log, deps.signal);
  const workdir = path.join(plan.workdir, plan.runId);
  mkdirSync(workdir, { recursive: true });
  let summary: RunSummary | undefined;
  const released: ReleasedLease[] = [];
  const lease = () => pool.acquire(plan.runId, deps.provider, { ...plan.cluster, workdir }, `[${plan.suite.file.name}]`);
  // Each cluster starts on the run's lease, leased again if it failed: a lease refused for want of
  // capacity is then a repeat's failure, recorded with its cause and retried, not the end of the run.
  const hosts: ClusterHosts = { start: async (request, log) => (await lease()).start(request, log) };
  try {
    // Any other lease failure (a bad image, a kernel without netem) ends the run at once: no retry would help.
    await lease().catch((error: unknown) => {
      if (!(error instanceof HostTroubleError)) throw error;
    });
    summary = await runWorkloads(plan, hosts, deps);
  } finally {
    if (!deps.leases) released.push(...(await pool.releaseAll()));
  }
  summary.clusters.push(...released.map((r) => r.info));
  return summary;
}

async function runWorkloads(plan: RunPlan, hosts: ClusterHosts, deps: { provider: ClusterProvider; sink: RepeatSink; log: Log; signal?: AbortSignal }): Promise<RunSummary> {
  const summary: RunSummary = { repeats: { ok: 0, failed: 0, timeout: 0, disturbed: 0 }, clusters: [] };
  const record = (r: RepeatRecord) => {
    deps.sink.recordRepeat(r);
    summary.repeats[r.status]++;
  };
  const suiteName = plan.suite.file.name;
  const onLaunch = deps.sink.recordProcess ? processRecorder(deps.sink as ProcessLedger, plan.runId, deps.log) : undefined;
  const absenceSaid = new Set<string>();
  for (const [index, workload] of plan.workloads.entries()) {
    if (deps.signal?.aborted) break;
    const label = `[${suiteName}] ${index + 1}/${plan.workloads.length} ${workload.name}`;
    if (workload.unsupported) {
      deps.sink.recordUnsupported?.({ runId: plan.runId, workload: workload.name, workloadVersion: workload.version, reason: workload.unsupported });
      (summary.unsupported ??= []).push(workload.name);
      deps.log.info(`${label}: unsupported by this version of the target (${workload.unsupported}); not run`);
      continue;
    }
    const workdir = path.join(plan.workdir, plan.runId, workload.name);
    mkdirSync(workdir, { recursive: true });
    let cluster: Cluster | undefined;
    const stopOnAbort = () => void cluster?.stop();
    deps.signal?.addEventListener('abort', stopOnAbort);
    const first = plan.firstRepeat ?? 1;
    let last = first + plan.repeats - 1;
    let retried = false;
    let warmups = 0;
    /** One more repeat on a fresh cluster, once per workload: the machine's failure is not the code's. */
    const retryOnce = (failure: RepeatFailure) => {
      if (failure.class !== 'infrastructure' || retried || deps.signal?.aborted || !plan.retryInfrastructure?.()) return;
      retried = true;
      last++;
      deps.log.info(`${label}: ${failure.cause}: retrying once on a fresh cluster`);
    };
    try {
      for (let repeat = first; repeat <= last && !deps.signal?.aborted; repeat++) {
        const startedAt = new Date().toISOString();
        const base = { runId: plan.runId, workload: workload.name, repeat, workloadVersion: workload.version, startedAt };
        try {
          if (!cluster) {
            deps.log.info(`${label}: starting a ${plan.cluster.shape.workers}-worker ${deps.provider.name} cluster`);
            cluster = await hosts.start({ ...plan.cluster, workdir, onLaunch }, deps.log);
            summary.clusters.push(cluster.info());
            await clientStep(cluster, plan, 'ready', workload, repeat, workdir);
            for (let w = 0; w < (plan.warmupRepeats ?? 0) && !deps.signal?.aborted; w++) {
              warmups++;
              const warmup = await runRepeat(cluster, plan, workload, repeat, workdir, deps.signal, `warmup-${warmups}`);
              deps.sink.recordRepeat({ ...base, repeat: warmups, ...warmup, warmup: true });
              deps.log.info(`${label} warm-up ${warmups}: ${warmup.status}${warmup.wall ? ` in ${warmup.wall.toFixed(1)}s` : ''}`);
              await clientStep(cluster, plan, 'reset', workload, repeat, workdir);
            }
          } else {
            await clientStep(cluster, plan, 'reset', workload, repeat, workdir);
          }
        } catch (error) {
          // Without a working cluster this repeat cannot run; the next one gets a new cluster.
          await cluster?.stop();
          cluster = undefined;
          const failure = clusterFailure(error);
          record({ ...base, status: 'failed', finishedAt: new Date().toISOString(), error: `cluster: ${firstLine(error)}`, failure, metrics: [], samples: [] });
          deps.log.warn(`${label} repeat ${repeat}/${last}: cluster failed: ${firstLine(error)}`);
          retryOnce(failure);
          continue;
        }
        const result = await runRepeat(cluster, plan, workload, repeat, workdir, deps.signal);
        record({ ...base, ...result });
        if (result.failure) retryOnce(result.failure);
        for (const { metric, reason } of result.absent ?? []) {
          if (absenceSaid.has(metric)) continue;
          absenceSaid.add(metric);
          deps.log.info(`${label}: ${metric} absent: ${reason}`);
        }
        deps.log.info(`${label} repeat ${repeat}/${last}: ${result.status}${result.wall ? ` in ${result.wall.toFixed(1)}s` : ''}${result.error ? `: ${lastLines(result.error)}` : ''}${result.disturbance ? ` (${result.disturbance})` : ''}`);
        if (result.status !== 'ok') {
          // A failed or disturbed repeat may leave a broken cluster: start the next one clean.
          await cluster.stop();
          cluster = undefined;
        }
      }
    } finally {
      deps.signal?.removeEventListener('abort', stopOnAbort);
      await cluster?.stop();
    }
  }
  return summary;
}

function commandEnv(plan: RunPlan, cluster: Cluster, repeat: number, workdir: string, metricsFile: string): Record<string, string> {
  const shape = plan.cluster.shape;
  return {
    ...plan.cluster.env,
    NIGHTBENCH_SCHEDULER_ADDRESS: cluster.schedulerAddress,
    NIGHTBENCH_WORKERS: String(shape.workers),
    NIGHTBENCH_THREADS_PER_WORKER: String(shape.threadsPerWorker),
    NIGHTBENCH_MEMORY_PER_WORKER: String(shape.memoryPerWorker),
    NIGHTBENCH_TOTAL_MEMORY: String(shape.memoryPerWorker * shape.workers),
    NIGHTBENCH_SCALE: String(plan.scale),
    NIGHTBENCH_TIME_LIMIT: String(plan.timeLimitSeconds),
    NIGHTBENCH_METRICS_FILE: metricsFile,
    NIGHTBENCH_WORKDIR: workdir,
    NIGHTBENCH_REPEAT: String(repeat),
  };
}

/** ready (after start) or reset (between repeats): the suite's own view of a healthy cluster. */
async function clientStep(cluster: Cluster, plan: RunPlan, step: 'ready' | 'reset', workload: Workload, repeat: number, workdir: string): Promise<void> {
  const argv = plan.suite.file[step];
  if (!argv) return;
  const result = await cluster.runCommand({
    argv: fillTemplate(argv, { ...plan.suite.placeholders, workload: workload.name }),
    env: commandEnv(plan, cluster, repeat, workdir, path.join(workdir, 'unused.json')),
    cwd: plan.suite.dir,
    timeoutMs: Math.max(clientTimeoutMs, plan.cluster.startTimeoutSeconds * 1000),
  });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? 'timed out' : `exit ${result.exitCode ?? result.signal}`;
    throw new Error(`${step} ${why}: ${lastLines(result.stderrTail)}`);
  }
}

interface RepeatResult {
  status: RepeatStatus;
  finishedAt: string;
  error?: string;
  failure?: RepeatFailure;
  disturbance?: string;
  metrics: MetricValue[];
  samples: RepeatRecord['samples'];
  wall?: number;
  absent?: RepeatRecord['absent'];
}

async function runRepeat(cluster: Cluster, plan: RunPlan, workload: Workload, repeat: number, workdir: string, signal?: AbortSignal, fileTag = String(repeat)): Promise<RepeatResult> {
  const metricsFile = path.join(workdir, `metrics-${fileTag}.json`);
  rmSync(metricsFile, { force: true });
  cluster.takeExits();
  const countersBefore = (await cluster.counters?.()) ?? {};
  const sampler = new Sampler(() => cluster.sampleTargets(), plan.sampleIntervalSeconds * 1000);
  sampler.start();
  const result = await cluster.runCommand({
    argv: fillTemplate(plan.suite.file.run, { ...plan.suite.placeholders, workload: workload.name }),
    env: commandEnv(plan, cluster, repeat, workdir, metricsFile),
    cwd: plan.suite.dir,
    timeoutMs: plan.timeLimitSeconds * 1000,
    signal,
  });
  const sampled = sampler.stop();
  const finishedAt = new Date().toISOString();
  // Looked at before the exits are taken, so a host lost just now is among them too.
  const hostsLost = (await cluster.takeHostLosses?.()) ?? [];
  const exits = cluster.takeExits();
  const failure = repeatFailure({ aborted: signal?.aborted ?? false, timedOut: result.timedOut, exitCode: result.exitCode, hostsLost: hostsLost.length });
  if (signal?.aborted) return { status: 'failed', finishedAt, error: 'interrupted', failure, metrics: [], samples: sampled.processes };
  if (failure) {
    // A worker that died in a failing repeat is still the workload's doing (memory, a crash it caused); a lost host is not.
    const disturbance = [...new Set([...hostsLost, ...exits, ...sampled.disappeared])].join('; ') || undefined;
    const error = result.timedOut ? `exceeded the time limit of ${plan.timeLimitSeconds}s\n${result.stderrTail}` : `exit ${result.exitCode ?? result.signal}\n${result.stderrTail}`;
    return { status: result.timedOut ? 'timeout' : 'failed', finishedAt, error, failure, disturbance, metrics: [], samples: sampled.processes };
  }
  let reported;
  try {
    reported = workloadMetricsSchema.parse(JSON.parse(readFileSync(metricsFile, 'utf8')));
  } catch (error) {
    return { status: 'failed', finishedAt, error: `the workload wrote no valid metrics file (${metricsFile}): ${firstLine(error)}`, failure: failureCauses.noMetrics, metrics: [], samples: sampled.processes };
  }
  const wall = result.durationMs / 1000;
  const metrics: MetricValue[] = [{ metric: 'wall_time', value: wall, unit: 's' }];
  if (sampled.processes.length > 0) {
    const usage = summarizeUsage(sampled.processes);
    metrics.push(
      { metric: 'cpu_time', value: usage.cpuSeconds, unit: 's' },
      { metric: 'peak_memory', value: usage.peakMemory, unit: 'bytes' },
      { metric: 'average_memory', value: usage.averageMemory, unit: 'bytes' },
    );
  }
  const countersAfter = (await cluster.counters?.()) ?? {};
  for (const [name, after] of Object.entries(countersAfter)) {
    metrics.push({ metric: name, value: after - (countersBefore[name] ?? 0), unit: 'bytes' });
  }
  const taken = new Set(metrics.map((m) => m.metric));
  for (const [name, m] of Object.entries(reported.metrics)) if (!taken.has(name)) metrics.push({ metric: name, value: m.value, unit: m.unit });
  const disturbances = [...new Set([...hostsLost, ...exits, ...sampled.disappeared, ...reported.disturbances])];
  return {
    status: disturbances.length > 0 ? 'disturbed' : 'ok',
    finishedAt,
    disturbance: disturbances.length > 0 ? disturbances.join('; ') : undefined,
    metrics,
    samples: sampled.processes,
    wall,
    absent: Object.entries(reported.absent).map(([metric, reason]) => ({ metric, reason })),
  };
}
