/**
 * A run's workloads as their series read them: how each workload's repeats ended and, per
 * metric, the values of its ok repeats. Result rows folded once per run and workload, so that
 * detection groups thousands of these into series instead of millions of rows, and so that the
 * history can keep them per run (`run_points`, migration 023). Pure: no I/O.
 *
 * @module
 */
import type { Comparability, RepeatStatus, ResultRow, RunKind } from './types.js';

/** What a run says of all its workloads: the facts a series point takes from its run. */
export interface RunFacts extends Comparability {
  runId: string;
  kind: RunKind;
  suite: string;
  night: string;
  startedAt: string;
  /** repo -> sha */
  commits: Record<string, string>;
  machineClass?: string;
}

/**
 * One metric of one workload in one run; `values` are those of the ok repeats (disturbed ones
 * left out), in repeat order, and `repeats` their repeat numbers (the pages place each value by
 * them). A tuple, as stored: a night at 20,000 series decodes 600,000 of them.
 */
export type MetricValues = [metric: string, unit: string | null, values: number[], repeats: number[]];

/** One run of one workload. */
export interface WorkloadNight {
  run: RunFacts;
  workload: string;
  workloadVersion: string;
  okRepeats: number;
  disturbedRepeats: number;
  /** Failed or timed out. */
  failedRepeats: number;
  /** Every metric a repeat reported (a disturbed one included), in the order first seen. */
  metrics: MetricValues[];
}

/**
 * Folds result rows, in any order, into one {@link WorkloadNight} per run and workload, in the
 * order each was first seen. A repeat has one row per metric, a failed one a single row without a
 * metric; a repeat's status is that of its first row.
 */
export function workloadNightsOfRows(rows: Iterable<ResultRow>): WorkloadNight[] {
  const folds = new Map<string, Fold>();
  const runs = new Map<string, RunFacts>();
  let previous: ResultRow | undefined;
  let fold: Fold | undefined;
  for (const row of rows) {
    if (fold === undefined || previous === undefined || row.runId !== previous.runId || row.workload !== previous.workload) {
      const key = `${row.runId}\0${row.workload}`;
      fold = folds.get(key);
      if (fold === undefined) {
        let run = runs.get(row.runId);
        if (run === undefined) runs.set(row.runId, (run = runFactsOf(row)));
        const night: WorkloadNight = { run, workload: row.workload, workloadVersion: row.workloadVersion, okRepeats: 0, disturbedRepeats: 0, failedRepeats: 0, metrics: [] };
        folds.set(key, (fold = { night, repeats: new Map(), metrics: new Map() }));
      }
    }
    previous = row;
    if (!fold.repeats.has(row.repeat)) fold.repeats.set(row.repeat, row.status);
    if (row.metric === null) continue;
    let metric = fold.metrics.get(row.metric);
    if (metric === undefined) {
      metric = [row.metric, row.unit, [], []];
      fold.metrics.set(row.metric, metric);
      fold.night.metrics.push(metric);
    }
    if (row.status === 'ok' && row.value !== null) {
      metric[2].push(row.value);
      metric[3].push(row.repeat);
    }
  }
  return [...folds.values()].map(({ night, repeats }) => {
    for (const status of repeats.values()) {
      if (status === 'ok') night.okRepeats++;
      else if (status === 'disturbed') night.disturbedRepeats++;
      else night.failedRepeats++;
    }
    return night;
  });
}

/** A workload night being folded: its repeats' statuses and its metrics by name. */
interface Fold {
  night: WorkloadNight;
  repeats: Map<number, RepeatStatus>;
  metrics: Map<string, MetricValues>;
}

function runFactsOf(row: ResultRow): RunFacts {
  const { runId, kind, suite, night, startedAt, commits, environmentName, environmentFingerprint, provider, clusterShape, instanceType, machineClass } = row;
  const run: RunFacts = { runId, kind, suite, night, startedAt, commits, environmentName, environmentFingerprint, provider, clusterShape, instanceType };
  if (machineClass !== undefined) run.machineClass = machineClass;
  return run;
}

/** One workload as stored. */
type StoredWorkload = [workload: string, version: string, ok: number, disturbed: number, failed: number, metrics: MetricValues[]];

/**
 * The stored form of a run's workloads: only what its repeats and values say (the run's own
 * facts, which a finished run may still change, are read from the run each time). JSON keeps
 * every double exactly.
 */
export function encodeRunPoints(nights: readonly WorkloadNight[]): string {
  const stored: StoredWorkload[] = nights.map((n) => [n.workload, n.workloadVersion, n.okRepeats, n.disturbedRepeats, n.failedRepeats, n.metrics]);
  return JSON.stringify(stored);
}

/** The workloads of {@link encodeRunPoints}' text, with `run`'s facts. */
export function decodeRunPoints(run: RunFacts, text: string): WorkloadNight[] {
  return (JSON.parse(text) as StoredWorkload[]).map(([workload, workloadVersion, okRepeats, disturbedRepeats, failedRepeats, metrics]) => ({
    run, workload, workloadVersion, okRepeats, disturbedRepeats, failedRepeats, metrics,
  }));
}
