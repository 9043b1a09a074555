import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { validate } from '../validation.js';
import type { LoadedConfig } from '../config/load.js';
import { getProvider } from '../cluster/registry.js';
import { suiteError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { RepeatStatus, RunKind, RunStatus } from '../history/types.js';
import type { Log } from '../log.js';
import { listWorkloads, loadSuite, runnerMetrics, selectWorkloads, type Suite } from '../suite/suite.js';
import type { Workload } from '../suite/schema.js';
import { prepareTarget, type PreparedTarget } from '../target/target.js';
import { harnessVersion } from '../version.js';
import type { ClusterProvider, ClusterShape } from '../cluster/types.js';
import { clusterShapeKey, identifyEnvironment, type EnvironmentIdentity } from './environment.js';
import { recoverAbandoned } from './leftovers.js';
import { readMachineFacts } from './machine.js';
import { instanceMachineClass, machineClass, type MachineFacts } from '../detect/machine-class.js';
import { processIdentity } from './proc.js';
import { historySink, runSuite, type RunPlan, type RunSummary } from './runner.js';

export interface ExecuteOptions {
  kind: RunKind;
  /** The night the run counts for (YYYY-MM-DD); default: today, UTC. */
  night?: string;
  /** Test this commit of the target's primary repository instead of its tip; the others follow the night's cut-off. */
  commit?: string;
  shard?: string;
  /** The execution made ready beforehand (a command prepares it before it opens the history). */
  prepared?: PreparedExecution;
  /** Narrows each suite's workloads after --workload filtering (e.g. a shard's share). */
  pick?: (suite: string, workloads: Workload[]) => Workload[];
  signal?: AbortSignal;
}

export interface RunReport {
  runId: string;
  suite: string;
  night: string;
  status: RunStatus;
  repeats: RunSummary['repeats'];
  clusterShape: string;
  costUsd?: number;
}

/** Everything a run needs that does not depend on which workload or repeat runs next. */
export interface PreparedExecution {
  loaded: LoadedConfig;
  provider: ClusterProvider;
  providerOptions: unknown;
  workdir: string;
  target: PreparedTarget;
  /** The target's variables plus the environment's: every cluster and workload process gets them. */
  env: Record<string, string>;
  selected: { suite: Suite; workloads: Workload[] }[];
  environment: EnvironmentIdentity;
  shape: ClusterShape;
  clusterShape: string;
  /** The machine this process runs on: every run it records says so. */
  machine: MachineFacts;
}

/**
 * The provider, suites, target and workloads of a config, made ready without starting a cluster,
 * so that every input error surfaces before anything runs.
 */
export async function prepareExecution(
  loaded: LoadedConfig,
  log: Log,
  options: Pick<ExecuteOptions, 'commit' | 'pick'> & { commits?: Readonly<Record<string, string>>; night?: string | 'now'; provider?: ClusterProvider } = {},
): Promise<PreparedExecution> {
  const { config } = loaded;
  // A provider of the caller's in place of the one the config names (EC2 against a local endpoint).
  const provider = options.provider ?? (await getProvider(config.cluster.provider));
  const providerOptions = validate(provider.optionsSchema, config.cluster.options, 'cluster.options');
  const suites = config.suites.map((name) => loadSuite(name, { baseDir: loaded.baseDir, python: config.python }));
  const python = suites[0]!.placeholders.python!;
  const workdir = path.resolve(loaded.baseDir, config.workdir);
  const target = await prepareTarget(config, { workdir, baseDir: loaded.baseDir, python, commit: options.commit, commits: options.commits, night: options.night, log });
  const env = { ...target.env, ...config.environment.variables };
  const selected = await selectAcrossSuites(suites, env, config.workloads, options.pick);
  const environment = await identifyEnvironment({ ...config.environment, python, scale: config.scale });
  const shape = { workers: config.cluster.workers, threadsPerWorker: config.cluster.threadsPerWorker, memoryPerWorker: config.cluster.memoryPerWorker };
  return { loaded, provider, providerOptions, workdir, target, env, selected, environment, shape, clusterShape: clusterShapeKey(provider.name, shape), machine: readMachineFacts() };
}

/** Records the start of one suite's run (status running) and returns its id. */
export function beginSuiteRun(store: Pick<HistoryStore, 'runs'>, prepared: PreparedExecution, suite: Suite, options: { kind: RunKind; night: string; shard?: string }): string {
  const { config } = prepared.loaded;
  const runId = randomUUID();
  store.runs.beginRun({
    id: runId,
    kind: options.kind,
    suite: suite.file.name,
    night: options.night,
    startedAt: new Date().toISOString(),
    target: prepared.target.description,
    environment: prepared.environment.facts,
    commits: prepared.target.commits,
    environmentName: prepared.environment.name,
    environmentFingerprint: prepared.environment.fingerprint,
    provider: prepared.provider.name,
    clusterShape: prepared.clusterShape,
    ...prepared.shape,
    scale: config.scale,
    harnessVersion,
    host: hostname(),
    pid: process.pid,
    ...processIdentity(process.pid),
    shard: options.shard,
    config,
    machine: prepared.machine,
    machineClass: machineClass(prepared.machine),
  });
  // Detection reads which way is better for each metric from what the suite declares.
  const workloads = prepared.selected.find((s) => s.suite === suite)?.workloads ?? [];
  store.runs.recordMetricDirections(
    workloads.flatMap((w) => [...runnerMetrics, ...w.metrics].map((m) => ({ suite: suite.file.name, workload: w.name, metric: m.name, direction: m.direction }))),
  );
  return runId;
}

/** What `runSuite` needs to run `workloads` of `suite` for the run `runId`, repeats `firstRepeat`.. on. */
export function suiteRunPlan(prepared: PreparedExecution, suite: Suite, workloads: Workload[], runId: string, repeats: { first?: number; count: number }): RunPlan {
  const { config } = prepared.loaded;
  return {
    runId,
    suite,
    workloads,
    repeats: repeats.count,
    warmupRepeats: config.warmupRepeats,
    firstRepeat: repeats.first,
    timeLimitSeconds: config.timeLimitSeconds,
    scale: config.scale,
    sampleIntervalSeconds: config.sampleIntervalSeconds,
    workdir: path.join(prepared.workdir, 'runs'),
    cluster: {
      shape: prepared.shape,
      scheduler: suite.file.processes.scheduler,
      worker: suite.file.processes.worker,
      // {commit:REPO} lets a provider install the target at the commit under test (EC2 user-data).
      placeholders: { ...suite.placeholders, ...Object.fromEntries(prepared.target.commits.map((c) => [`commit:${c.repo}`, c.sha])) },
      env: prepared.env,
      startTimeoutSeconds: config.cluster.startTimeoutSeconds,
      options: prepared.providerOptions,
      runId,
    },
  };
}

/** Records how a run ended, from what its `runSuite` calls summarised (one, or one per slot). */
export function finishSuiteRun(store: Pick<HistoryStore, 'runs' | 'processes'>, runId: string, summaries: RunSummary[], outcome: { error?: string; aborted: boolean }): { status: RunStatus; repeats: RunSummary['repeats']; costUsd?: number } {
  const summary = summaries.length > 0 ? mergeSummaries(summaries) : undefined;
  const status = outcome.aborted ? 'incomplete' : runStatus(summary, outcome.error);
  const costs = (summary?.clusters ?? []).flatMap((c) => (c.costUsd === undefined ? [] : [c.costUsd]));
  const costUsd = costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : undefined;
  const first = summary?.clusters[0];
  store.runs.finishRun(runId, {
    status,
    finishedAt: new Date().toISOString(),
    error: outcome.aborted ? 'interrupted' : outcome.error,
    costUsd,
    clusterInfo: { clusters: summary?.clusters ?? [] },
    instanceType: first?.instanceType,
    region: first?.region,
    // The cluster's instances, not the runner that drove them, ran the workloads.
    machineClass: first?.instanceType === undefined ? undefined : instanceMachineClass(first.instanceType),
  });
  // runSuite stops every cluster it starts before it returns, on every path.
  store.processes.settleRunProcesses(runId, 'stopped');
  return { status, repeats: summary?.repeats ?? { ok: 0, failed: 0, timeout: 0, disturbed: 0 }, costUsd };
}

function mergeSummaries(summaries: RunSummary[]): RunSummary {
  const repeats = { ok: 0, failed: 0, timeout: 0, disturbed: 0 };
  for (const s of summaries) for (const status of Object.keys(repeats) as RepeatStatus[]) repeats[status] += s.repeats[status];
  return { repeats, clusters: summaries.flatMap((s) => s.clusters), unsupported: summaries.flatMap((s) => s.unsupported ?? []) };
}

/**
 * One night (or ad-hoc run) of every configured suite: the target at its commit, a cluster per
 * workload, every repeat recorded as it finishes. Input errors surface before any cluster starts.
 */
export async function executeRuns(loaded: LoadedConfig, store: Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>, log: Log, options: ExecuteOptions): Promise<RunReport[]> {
  await recoverAbandoned(store, log);
  store.runs.assertWritable();
  const prepared = options.prepared ?? (await prepareExecution(loaded, log, { ...options, night: options.night ?? 'now' }));
  const night = options.night ?? new Date().toISOString().slice(0, 10);
  const repeats = loaded.config.repeats;
  const began = Date.now();

  const reports: RunReport[] = [];
  for (const { suite, workloads } of prepared.selected) {
    if (options.signal?.aborted) break;
    const runId = beginSuiteRun(store, prepared, suite, { kind: options.kind, night, shard: options.shard });
    log.info(`run ${runId}: ${workloads.length} workloads x ${repeats} repeats of suite ${suite.file.name} on ${prepared.clusterShape}`);
    let summary: RunSummary | undefined;
    let error: string | undefined;
    try {
      const plan = { ...suiteRunPlan(prepared, suite, workloads, runId, { count: repeats }), retryInfrastructure: () => withinBudget(loaded.config, began) };
      summary = await runSuite(plan, { provider: prepared.provider, sink: historySink(store), log, signal: options.signal });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const finished = finishSuiteRun(store, runId, summary ? [summary] : [], { error, aborted: options.signal?.aborted ?? false });
    reports.push({ runId, suite: suite.file.name, night, clusterShape: prepared.clusterShape, ...finished });
    log.info(`run ${runId}: ${finished.status}`);
  }
  return reports;
}

/** True while one more repeat's time limit fits in the night's budget (`timeBudgetMinutes`), counted from `began`. */
function withinBudget(config: LoadedConfig['config'], began: number): boolean {
  return config.timeBudgetMinutes === undefined || Date.now() + config.timeLimitSeconds * 1000 <= began + config.timeBudgetMinutes * 60_000;
}

function runStatus(summary: RunSummary | undefined, error: string | undefined): RunStatus {
  if (!summary || error) return 'failed';
  const { ok, disturbed, failed, timeout } = summary.repeats;
  // A night whose workloads this version of the target cannot run at all is complete, not failed.
  if (ok + disturbed === 0) return failed + timeout === 0 && (summary.unsupported?.length ?? 0) > 0 ? 'complete' : 'failed';
  return failed + timeout > 0 ? 'partial' : 'complete';
}

/** Each suite's share of the wanted workloads; a name that no suite knows is an error. */
export async function selectAcrossSuites(suites: Suite[], env: Record<string, string>, wanted: string[], pick?: ExecuteOptions['pick']) {
  const listed = await Promise.all(suites.map(async (suite) => ({ suite, all: await listWorkloads(suite, env) })));
  const known = new Set(listed.flatMap((l) => l.all.map((w) => w.name)));
  const unknown = wanted.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    // selectWorkloads words the error and lists the known names.
    selectWorkloads(listed.flatMap((l) => l.all), unknown, suites.map((s) => s.file.name).join(', '));
  }
  const selected = listed
    .map(({ suite, all }) => {
      const mine = wanted.length === 0 ? all : all.filter((w) => wanted.includes(w.name));
      return { suite, workloads: pick ? pick(suite.file.name, mine) : mine };
    })
    .filter((s) => s.workloads.length > 0);
  if (selected.length === 0) throw suiteError('no workload to run: the filters select none');
  return selected;
}
