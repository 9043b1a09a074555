import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { validate } from '../config/load.js';
import type { LoadedConfig } from '../config/load.js';
import { getProvider } from '../cluster/registry.js';
import { suiteError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { RunKind, RunStatus } from '../history/types.js';
import type { Log } from '../log.js';
import { listWorkloads, loadSuite, selectWorkloads, type Suite } from '../suite/suite.js';
import type { Workload } from '../suite/schema.js';
import { prepareTarget } from '../target/target.js';
import { harnessVersion } from '../version.js';
import { clusterShapeKey, identifyEnvironment } from './environment.js';
import { runSuite, type RunSummary } from './runner.js';

export interface ExecuteOptions {
  kind: RunKind;
  /** The night the run counts for (YYYY-MM-DD); default: today, UTC. */
  night?: string;
  /** Test this commit of the target's primary repository instead of its tip. */
  commit?: string;
  shard?: string;
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

/**
 * One night (or ad-hoc run) of every configured suite: the target at its commit, a cluster per
 * workload, every repeat recorded as it finishes. Input errors surface before any cluster starts.
 */
export async function executeRuns(loaded: LoadedConfig, store: HistoryStore, log: Log, options: ExecuteOptions): Promise<RunReport[]> {
  const { config } = loaded;
  for (const id of store.markAbandonedRuns()) log.warn(`run ${id} had stopped before it finished; marked incomplete`);
  store.assertWritable();

  const provider = await getProvider(config.cluster.provider);
  const providerOptions = validate(provider.optionsSchema, config.cluster.options, 'cluster.options');
  const suites = config.suites.map((name) => loadSuite(name, { baseDir: loaded.baseDir, python: config.python }));
  const python = suites[0]!.placeholders.python!;
  const workdir = path.resolve(loaded.baseDir, config.workdir);
  const target = await prepareTarget(config, { workdir, baseDir: loaded.baseDir, python, commit: options.commit, log });
  const env = { ...target.env, ...config.environment.variables };

  const selected = await selectAcrossSuites(suites, env, config.workloads, options.pick);
  const environment = await identifyEnvironment({ ...config.environment, python, scale: config.scale });
  const shape = { workers: config.cluster.workers, threadsPerWorker: config.cluster.threadsPerWorker, memoryPerWorker: config.cluster.memoryPerWorker };
  const night = options.night ?? new Date().toISOString().slice(0, 10);

  const reports: RunReport[] = [];
  for (const { suite, workloads } of selected) {
    if (options.signal?.aborted) break;
    const runId = randomUUID();
    const clusterShape = clusterShapeKey(provider.name, shape);
    store.beginRun({
      id: runId,
      kind: options.kind,
      suite: suite.file.name,
      night,
      startedAt: new Date().toISOString(),
      target: target.description,
      environment: environment.facts,
      commits: target.commits,
      environmentName: environment.name,
      environmentFingerprint: environment.fingerprint,
      provider: provider.name,
      clusterShape,
      ...shape,
      scale: config.scale,
      harnessVersion,
      host: hostname(),
      pid: process.pid,
      shard: options.shard,
      config,
    });
    log.info(`run ${runId}: ${workloads.length} workloads x ${config.repeats} repeats of suite ${suite.file.name} on ${clusterShape}`);
    let summary: RunSummary | undefined;
    let error: string | undefined;
    try {
      summary = await runSuite(
        {
          runId,
          suite,
          workloads,
          repeats: config.repeats,
          timeLimitSeconds: config.timeLimitSeconds,
          scale: config.scale,
          sampleIntervalSeconds: config.sampleIntervalSeconds,
          workdir: path.join(workdir, 'runs'),
          cluster: {
            shape,
            scheduler: suite.file.processes.scheduler,
            worker: suite.file.processes.worker,
            placeholders: suite.placeholders,
            env,
            startTimeoutSeconds: config.cluster.startTimeoutSeconds,
            options: providerOptions,
            runId,
          },
        },
        { provider, sink: store, log, signal: options.signal },
      );
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const status = options.signal?.aborted ? 'incomplete' : runStatus(summary, error);
    const costs = (summary?.clusters ?? []).flatMap((c) => (c.costUsd === undefined ? [] : [c.costUsd]));
    const costUsd = costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : undefined;
    const first = summary?.clusters[0];
    store.finishRun(runId, {
      status,
      finishedAt: new Date().toISOString(),
      error: options.signal?.aborted ? 'interrupted' : error,
      costUsd,
      clusterInfo: { clusters: summary?.clusters ?? [] },
      instanceType: first?.instanceType,
      region: first?.region,
    });
    reports.push({ runId, suite: suite.file.name, night, status, repeats: summary?.repeats ?? { ok: 0, failed: 0, timeout: 0, disturbed: 0 }, clusterShape, costUsd });
    log.info(`run ${runId}: ${status}`);
  }
  return reports;
}

function runStatus(summary: RunSummary | undefined, error: string | undefined): RunStatus {
  if (!summary || error) return 'failed';
  const { ok, disturbed, failed, timeout } = summary.repeats;
  if (ok + disturbed === 0) return 'failed';
  return failed + timeout > 0 ? 'partial' : 'complete';
}

/** Each suite's share of the wanted workloads; a name that no suite knows is an error. */
async function selectAcrossSuites(suites: Suite[], env: Record<string, string>, wanted: string[], pick?: ExecuteOptions['pick']) {
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
