/**
 * The bisect's I/O: the suspect range read from each repository's clone, one state checked out
 * at a time, one repeat of one workload run on a fresh cluster of the configured shape (on hosts
 * leased once per state, where the provider leases), every repeat recorded as a run of kind
 * 'bisect'. The decisions are `search.ts`'s.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LoadedConfig } from '../config/load.js';
import type { GitTarget } from '../config/schema.js';
import type { ClusterProvider } from '../cluster/types.js';
import { NightbenchError, lastLines } from '../errors.js';
import { listRangeCommits } from '../git/range-commits.js';
import type { HistoryStore } from '../history/store.js';
import type { RepeatRecord, RunProcess } from '../history/types.js';
import type { Log } from '../log.js';
import { beginSuiteRun, finishSuiteRun, prepareExecution, suiteRunPlan, type PreparedExecution } from '../runner/execute.js';
import { recoverAbandoned } from '../runner/leftovers.js';
import { processIdentity } from '../runner/proc.js';
import { LeasePool, type ReleasedLease } from '../runner/lease-pool.js';
import { leaseSummary, runSuite, type RunSummary } from '../runner/runner.js';
import { checkoutDir } from '../target/git-target.js';
import { prepareTarget } from '../target/target.js';
import { orderStates, type RangeCommitRef, type TargetState } from './candidates.js';
import { bisect, rerun, type BisectMode, type BisectResult, type MeasurePort, type Observation } from './search.js';
import { formatCount } from '../format/index.js';

/** What to bisect: one series (suite, workload, metric) between a good and a bad state. */
export interface BisectRequest {
  mode: 'bisect' | 'rerun';
  judged: BisectMode;
  suite?: string;
  workload: string;
  metric: string;
  good: Record<string, string>;
  bad: Record<string, string>;
  /** The series' own noise (relative), a floor under the noise the bisect measures. */
  priorNoise: number;
  episodeId?: number;
  issueNumber?: number;
  seed?: number;
}

export interface BisectReport {
  id: string;
  request: BisectRequest;
  suite: string;
  states: TargetState[];
  result: BisectResult;
  /** Seconds clusters were up for the bisect (start to stop of every repeat). */
  clusterSeconds: number;
  clusterShape: string;
}

/** The config's target, which must be git: a bisect searches commits, and an installed target has none. */
export function bisectTarget(loaded: LoadedConfig): GitTarget {
  const target = loaded.config.target;
  if (target.kind !== 'git') throw new NightbenchError('usage', 'bisect needs a git target (target.kind "git"): an installed target has no commits to search');
  return target;
}

/** Runs a bisect (or rerun) of `request` and records it; the caller reports the result. */
export async function runBisect(loaded: LoadedConfig, store: Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>, log: Log, request: BisectRequest, ports: { signal?: AbortSignal; provider?: ClusterProvider } = {}): Promise<BisectReport> {
  const { signal } = ports;
  const target = bisectTarget(loaded);
  await recoverAbandoned(store, log);
  store.runs.assertWritable();
  const selected = { ...loaded, config: { ...loaded.config, workloads: [request.workload] } };
  const quiet: Log = { info: (m) => log.debug(m), warn: (m) => log.warn(m), debug: (m) => log.debug(m) };
  const prepared = await prepareExecution(selected, quiet, { commits: request.bad, provider: ports.provider });
  const { suite, workloads } = prepared.selected.find((s) => s.suite.file.name === request.suite) ?? prepared.selected[0]!;

  const repositories = target.repositories.map((r) => r.name);
  const ranges: Record<string, RangeCommitRef[]> = {};
  for (const repo of repositories) {
    const [from, to] = [request.good[repo], request.bad[repo]];
    if (!from || !to) throw new NightbenchError('usage', `bisect: no ${!from ? 'good' : 'bad'} commit of repository ${repo}`);
    ranges[repo] = from === to ? [] : await listRangeCommits(checkoutDir(prepared.workdir, repo), repo, from, to, quiet);
  }
  const states = orderStates(repositories, request.good, ranges);
  const last = states.length - 1;
  if (last < 1) throw new NightbenchError('usage', 'bisect: the good and bad commits are the same: nothing to search');
  log.info(`bisect ${request.workload} ${request.metric}: ${formatCount(last, 'commit')} across ${repositories.filter((r) => ranges[r]!.length > 0).join(' and ')} on ${prepared.clusterShape}`);

  const id = randomUUID();
  store.bisects.beginBisect({
    id,
    createdAt: new Date().toISOString(),
    mode: request.mode,
    judged: request.judged,
    episodeId: request.episodeId,
    issueNumber: request.issueNumber,
    suite: suite.file.name,
    workload: request.workload,
    metric: request.metric,
    goodCommits: request.good,
    badCommits: request.bad,
    host: hostname(),
    pid: process.pid,
    ...processIdentity(process.pid),
  });
  const measurer = new StateMeasurer(prepared, store, id, states, request, quiet, signal);
  const port: MeasurePort = { measure: (state) => measurer.measure(state, suite, workloads), progress: (line) => log.info(line) };
  const options = { mode: request.judged, last, priorNoise: request.priorNoise, seed: request.seed };
  let result: BisectResult;
  try {
    result = request.mode === 'rerun' ? await rerun(port, options) : await bisect(port, options);
  } catch (error) {
    await measurer.finish(signal?.aborted ?? false);
    store.bisects.finishBisect(id, { status: signal?.aborted ? 'incomplete' : 'failed', finishedAt: new Date().toISOString(), result: { error: String(error) }, clusterSeconds: measurer.clusterSeconds });
    throw error;
  }
  await measurer.finish(false);
  const culpritState = result.outcome.kind === 'culprit' ? states[result.outcome.state] : undefined;
  store.bisects.finishBisect(id, {
    status: 'complete',
    finishedAt: new Date().toISOString(),
    outcome: result.outcome.kind,
    culprit: culpritState?.change ? { repo: culpritState.change.repo, sha: culpritState.change.sha } : undefined,
    result,
    clusterSeconds: measurer.clusterSeconds,
  });
  return { id, request, suite: suite.file.name, states, result, clusterSeconds: measurer.clusterSeconds, clusterShape: prepared.clusterShape };
}

/**
 * Checks out states and runs one repeat at a time; one history run per state. A state's hosts are
 * leased once (a provider may install the target at that state's commits when it leases) and kept
 * while the state is still measured: the two ends, the references, for the whole bisect; each
 * candidate until the next one starts.
 */
class StateMeasurer {
  clusterSeconds = 0;
  private current?: number;
  private candidate?: string;
  private prepared: PreparedExecution;
  private readonly runs = new Map<number, { runId: string; repeats: number; summaries: RunSummary[] }>();
  private readonly leases: LeasePool;

  constructor(
    private readonly base: PreparedExecution,
    private readonly store: Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>,
    private readonly bisectId: string,
    private readonly states: TargetState[],
    private readonly request: BisectRequest,
    private readonly log: Log,
    private readonly signal?: AbortSignal,
  ) {
    this.prepared = base;
    this.leases = new LeasePool(log, signal);
  }

  async measure(state: number, suite: PreparedExecution['selected'][number]['suite'], workloads: PreparedExecution['selected'][number]['workloads']): Promise<Observation> {
    if (this.signal?.aborted) throw new Error('interrupted');
    if (this.current !== state) {
      const { config } = this.base.loaded;
      const target = await prepareTarget(config, { workdir: this.base.workdir, baseDir: this.base.loaded.baseDir, python: suite.placeholders.python!, commits: this.states[state]!.commits, log: this.log });
      this.prepared = { ...this.base, target, env: { ...target.env, ...config.environment.variables } };
      this.current = state;
    }
    let run = this.runs.get(state);
    if (!run) {
      const runId = beginSuiteRun(this.store, this.prepared, suite, { kind: 'bisect', night: new Date().toISOString().slice(0, 10) });
      this.store.bisects.linkRunToBisect(runId, this.bisectId);
      run = { runId, repeats: 0, summaries: [] };
      this.runs.set(state, run);
      if (state !== 0 && state !== this.states.length - 1) {
        if (this.candidate) this.attribute(await this.leases.release(this.candidate));
        this.candidate = runId;
      }
    }
    let recorded: RepeatRecord | undefined;
    // The cluster's process groups are recorded too, so that a later start ends them if this bisect is killed.
    const sink = { recordRepeat: (record: RepeatRecord) => (this.store.runs.recordRepeat(record), (recorded = record)), recordProcess: (process: RunProcess) => this.store.processes.recordProcess(process) };
    const started = Date.now();
    const plan = suiteRunPlan(this.prepared, suite, workloads, run.runId, { first: run.repeats + 1, count: 1 });
    run.summaries.push(await runSuite(plan, { provider: this.prepared.provider, sink, log: this.log, signal: this.signal, leases: this.leases }));
    this.clusterSeconds += (Date.now() - started) / 1000;
    run.repeats++;
    if (!recorded || recorded.status === 'failed' || recorded.status === 'timeout') return { error: recorded?.error ? lastLines(recorded.error) : 'no repeat recorded' };
    if (this.request.judged === 'pass-fail') return { value: 1 };
    const value = recorded.metrics.find((m) => m.metric === this.request.metric)?.value;
    return value === undefined ? { error: `the workload reported no ${this.request.metric}` } : { value };
  }

  async finish(aborted: boolean): Promise<void> {
    for (const released of await this.leases.releaseAll()) this.attribute(released);
    for (const run of this.runs.values()) finishSuiteRun(this.store, run.runId, run.summaries, { aborted });
  }

  /** A lease given back goes into the cost of the state's run it was taken for. */
  private attribute(released: ReleasedLease | undefined): void {
    if (!released) return;
    [...this.runs.values()].find((run) => run.runId === released.key)?.summaries.push(leaseSummary(released.info));
  }
}
