import { randomInt, randomUUID } from 'node:crypto';
import type { LoadedConfig } from '../config/load.js';
import { runCommand } from '../process/processes.js';
import { NightbenchError, firstLine, lastLines } from '../errors.js';
import type { NewAbTest } from '../history/ab-queries.js';
import type { HistoryStore } from '../history/store.js';
import type { RunStatus } from '../history/types.js';
import type { Log } from '../log.js';
import { beginSuiteRun, finishSuiteRun, prepareExecution, suiteRunPlan, type PreparedExecution } from '../runner/execute.js';
import { recoverAbandoned } from '../runner/leftovers.js';
import { processIdentity } from '../runner/proc.js';
import { historySink, leaseSummary, runSuite, type RunSummary } from '../runner/runner.js';
import { runnerMetrics, type Suite } from '../suite/suite.js';
import type { MetricDirection } from '../direction.js';
import { testKey } from './analysis.js';
import { environmentConfig, environmentRef, loadEnvironments, type LoadedEnvironment } from './environments.js';
import { runLanes } from './lanes.js';
import { abGroups, buildSchedule, type AbGroup } from './schedule.js';
import type { AbTestRecord } from './test-record.js';

export interface AbRunOptions {
  /** Overrides ab.seed; default: ab.seed, else drawn now and recorded. */
  seed?: number;
  /** The night its runs count for (YYYY-MM-DD); default: the day it starts, UTC. */
  night?: string;
  signal?: AbortSignal;
}

interface PreparedEnvironment extends LoadedEnvironment {
  prepared: PreparedExecution;
}

/**
 * Runs an A/B: every environment prepared (target, setup, workloads) before any cluster starts,
 * then the slots in their recorded order, each on a fresh cluster (on hosts leased once per lane
 * and run, where the provider leases), every value recorded as a run of kind 'ab' tied to its
 * group. Returns the test as stored; `ab report` analyses it. The history is opened
 * (`openStore`) only once the environments are prepared, as the nightly's: a bad environment
 * file, ref or workload creates no database.
 */
export async function runAb(loaded: LoadedConfig, openStore: () => Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>, log: Log, options: AbRunOptions = {}): Promise<AbTestRecord> {
  const section = loaded.config.ab;
  const environments = loadEnvironments(loaded, section);
  const prepared = await prepareEnvironments(loaded, environments, log);
  const store = openStore();
  await recoverAbandoned(store, log);
  store.runs.assertWritable();
  const groups = abGroups(environments.map((e) => e.environment.name), section.nullHypothesis);
  const workloads = commonWorkloads(prepared, log);
  const seed = options.seed ?? section.seed ?? randomInt(2 ** 31);
  const schedule = buildSchedule(groups, workloads.map(({ suite, workload }) => ({ suite: suite.file.name, workload: workload.name })), { ...section, seed });
  const clusterShapes = [...new Set(prepared.map((e) => e.prepared.clusterShape))];
  if (clusterShapes.length > 1) log.warn(`the environments run on different cluster shapes (${clusterShapes.join(', ')}): the A/B compares shapes too`);

  const record: NewAbTest<AbTestRecord> = {
    id: randomUUID(),
    createdAt: new Date().toISOString(),
    config: { ab: section, environments: environments.map((e) => e.environment), groups, directions: metricDirections(workloads), clusterShapes },
    order: section.order,
    seed,
    schedule,
  };
  store.ab.createAbTest(record, processIdentity(process.pid));
  log.info(`A/B ${record.id}: ${groups.map((g) => `${g.label}=${g.environment}`).join(', ')}; ${schedule.length} slots of ${workloads.length} workloads, ${section.repeats} repeats a side, ${section.order} order, seed ${seed}`);

  const night = options.night ?? record.createdAt.slice(0, 10);
  const runs = new Map<string, { runId: string; summaries: RunSummary[]; error?: string }>();
  for (const group of groups) {
    const environment = environmentOf(prepared, group);
    for (const { suite } of environment.prepared.selected) {
      const runId = beginSuiteRun(store, environment.prepared, suite, { kind: 'ab', night });
      store.ab.attachRunToAbTest(runId, record.id, group.label);
      runs.set(runKey(group.label, suite.file.name), { runId, summaries: [] });
    }
  }

  const released = await runLanes(schedule, section.maxParallel, { log, signal: options.signal }, async (slot, index, leases) => {
    const group = groups.find((g) => g.label === slot.group)!;
    const environment = environmentOf(prepared, group);
    const selected = environment.prepared.selected.find((s) => s.suite.file.name === slot.suite)!;
    const workload = selected.workloads.find((w) => w.name === slot.workload)!;
    const run = runs.get(runKey(slot.group, slot.suite))!;
    log.info(`slot ${index + 1}/${schedule.length}: ${slot.group} (${group.environment}) ${slot.workload}, repeat ${slot.firstRepeat}${slot.count > 1 ? `-${slot.firstRepeat + slot.count - 1}` : ''}`);
    try {
      const plan = suiteRunPlan(environment.prepared, selected.suite, [workload], run.runId, { first: slot.firstRepeat, count: slot.count });
      run.summaries.push(await runSuite(plan, { provider: environment.prepared.provider, sink: historySink(store), log, signal: options.signal, leases }));
    } catch (error) {
      run.error = firstLine(error);
      log.warn(`slot ${index + 1}: ${run.error}`);
    }
  });
  // Each lease was taken for one run (its key) and served all that run's slots on its lane.
  for (const { key, info } of released) [...runs.values()].find((run) => run.runId === key)?.summaries.push(leaseSummary(info));

  const aborted = options.signal?.aborted ?? false;
  const statuses = [...runs.values()].map((run) => finishSuiteRun(store, run.runId, run.summaries, { error: run.error, aborted }).status);
  const status = testStatus(statuses, aborted);
  const finishedAt = new Date().toISOString();
  store.ab.finishAbTest(record.id, status, finishedAt);
  log.info(`A/B ${record.id}: ${status}`);
  return { ...record, status, finishedAt };
}

/** Each distinct environment once (A and A' share theirs), in order; all input errors come out here. */
async function prepareEnvironments(loaded: LoadedConfig, environments: LoadedEnvironment[], log: Log): Promise<PreparedEnvironment[]> {
  const prepared: PreparedEnvironment[] = [];
  for (const entry of environments) {
    const config = environmentConfig(loaded, entry);
    const ref = environmentRef(entry.environment);
    log.info(`environment ${entry.environment.name}: preparing${ref ? ` the target at ${ref}` : ''}`);
    const execution = await prepareExecution(config, log, { commit: ref }).catch((error: unknown) => {
      throw error instanceof NightbenchError ? new NightbenchError(error.kind, `environment ${entry.environment.name} (${entry.file}): ${error.message}`, { cause: error }) : error;
    });
    if (entry.environment.setup) await runSetup(entry, execution, loaded.baseDir, log);
    prepared.push({ ...entry, prepared: execution });
  }
  return prepared;
}

async function runSetup({ file, environment }: LoadedEnvironment, execution: PreparedExecution, cwd: string, log: Log): Promise<void> {
  log.info(`environment ${environment.name}: setup: ${environment.setup}`);
  const result = await runCommand({ argv: ['sh', '-c', environment.setup!], env: execution.env, cwd, timeoutMs: 30 * 60_000 });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? 'timed out' : `exit ${result.exitCode ?? result.signal}`;
    throw new NightbenchError('target', `environment ${environment.name} (${file}): setup failed (${why}): ${lastLines(result.stderrTail)}`);
  }
}

/** The workloads every environment has (a git ref may lack a newer one); the baseline's order. */
function commonWorkloads(prepared: PreparedEnvironment[], log: Log) {
  const [baseline, ...others] = prepared;
  const has = (env: PreparedEnvironment, suite: string, workload: string) => env.prepared.selected.some((s) => s.suite.file.name === suite && s.workloads.some((w) => w.name === workload));
  const common = baseline!.prepared.selected.flatMap(({ suite, workloads }) => workloads.map((workload) => ({ suite, workload })));
  const kept = common.filter(({ suite, workload }) => others.every((env) => has(env, suite.file.name, workload.name)));
  for (const { workload } of common) if (!kept.some((k) => k.workload === workload)) log.warn(`workload ${workload.name} is missing from an environment: left out`);
  if (kept.length === 0) throw new NightbenchError('suite', 'no workload is common to every environment of the A/B');
  return kept;
}

function metricDirections(workloads: { suite: Suite; workload: { name: string; metrics: { name: string; direction: MetricDirection }[] } }[]): Record<string, MetricDirection> {
  const directions: Record<string, MetricDirection> = {};
  for (const { suite, workload } of workloads) {
    for (const metric of [...runnerMetrics, ...workload.metrics]) directions[testKey(suite.file.name, workload.name, metric.name)] = metric.direction;
  }
  return directions;
}

function environmentOf(prepared: PreparedEnvironment[], group: AbGroup): PreparedEnvironment {
  return prepared.find((e) => e.environment.name === group.environment)!;
}

function runKey(group: string, suite: string): string {
  return `${group}\u0000${suite}`;
}

function testStatus(statuses: RunStatus[], aborted: boolean): RunStatus {
  if (aborted) return 'incomplete';
  if (statuses.every((s) => s === 'complete')) return 'complete';
  return statuses.every((s) => s === 'failed') ? 'failed' : 'partial';
}
