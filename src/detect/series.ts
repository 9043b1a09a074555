/**
 * Stage 1 of detection: history rows grouped into series, one point per night. Pure: no I/O.
 *
 * A series is one workload's metric in one comparable environment (suite, workload version,
 * cluster provider and shape, instance type, environment name and fingerprint): values from
 * anywhere else are never compared with it.
 *
 * @module
 */
import { median } from 'simple-statistics';
import type { ResultRow, SeriesIdentity } from '../history/types.js';
import { workloadNightsOfRows, type RunFacts, type WorkloadNight } from '../history/workload-nights.js';

export type { SeriesIdentity };

/**
 * What a night tells about a series:
 * - `ok`: at least one undisturbed repeat, none failed; `values` holds the undisturbed ones.
 * - `failed`: a repeat failed or timed out. Its value is unknown and was likely the slowest, so
 *   judging the surviving repeats would hide exactly the slowdowns that end in a time-out.
 * - `disturbed`: every repeat ran while the cluster changed (a worker died, a host joined).
 * - `missing`: the workload ran but did not report this metric.
 */
export type PointStatus = 'ok' | 'failed' | 'disturbed' | 'missing';

/** One night of one series: the latest run of that night that ran the workload. */
export interface NightPoint {
  night: string;
  runId: string;
  /** repo -> sha of the target this night. */
  commits: Record<string, string>;
  status: PointStatus;
  /** Values of the undisturbed ok repeats, in repeat order. */
  values: number[];
  okRepeats: number;
  failedRepeats: number;
  disturbedRepeats: number;
  /** The class of the machine that ran the night (src/detect/machine-class.ts), when its run recorded one. */
  machineClass?: string;
}

/**
 * The median of a night's repeats, the same number `simple-statistics`' `median` gives, without its
 * copy and selection for the one to three repeats nights hold (a night's judgement at 20,000 series
 * takes the median of every night of every series' lookback).
 */
export function nightMedian(values: readonly number[]): number {
  const [a, b, c] = values;
  if (values.length === 1) return a!;
  if (values.length === 2) return Math.min(a!, b!) + 0.5 * (Math.max(a!, b!) - Math.min(a!, b!));
  if (values.length === 3) return Math.max(Math.min(a!, b!), Math.min(Math.max(a!, b!), c!));
  return median(values as number[]);
}

/** The log of a point's median: its level, as the comparison and the judgement read it. */
export function logMedianOf(point: NightPoint): number {
  return Math.log(nightMedian(point.values));
}

export interface Series {
  /** Stable across runs and processes: stored with episodes and hashed into their fingerprints. */
  key: string;
  identity: SeriesIdentity;
  unit: string | null;
  /** Oldest night first, at most one point per night. */
  points: NightPoint[];
}

/** The stable key of a series: its identity as a JSON array, so that no name can collide with another. */
export function seriesKey(identity: SeriesIdentity): string {
  return JSON.stringify([
    identity.suite,
    identity.workload,
    identity.workloadVersion,
    identity.metric,
    identity.provider,
    identity.clusterShape,
    identity.instanceType ?? null,
    identity.environmentName,
    identity.environmentFingerprint,
  ]);
}

/**
 * Every run of one workload in one comparable environment; its metrics are the union over runs.
 * Held compactly while the rest of the history is read: a night at 20,000 series holds 200,000
 * workload nights, and kept as they were decoded (an object, its metrics' tuples and arrays, their
 * strings: some twenty objects each) they all survived the young generation, so the garbage
 * collector copied millions of objects it could not free. Here a workload's runs are a few arrays
 * that grow, and each metric's values one array of numbers.
 */
interface WorkloadHistory {
  identity: Omit<SeriesIdentity, 'metric'>;
  /** The runs in the order read; the counts below are indexed alike. */
  runs: RunFacts[];
  okRepeats: number[];
  disturbedRepeats: number[];
  failedRepeats: number[];
  /** In the order first reported. */
  metrics: Map<string, MetricRuns>;
}

/** One metric's ok values over a workload's runs: run `i`'s are `values[starts[i]..starts[i + 1])` (no values where it did not report). */
interface MetricRuns {
  /** As its first report gave it. */
  unit: string | null;
  starts: number[];
  values: number[];
}

/** Which nights to keep: detection needs only the judged night and its window. */
export interface NightRange {
  /** First night kept (YYYY-MM-DD), inclusive. */
  from?: string;
  /** Last night kept, inclusive. */
  to?: string;
}

/**
 * Groups rows (e.g. `RunStore.resultRows({ kind: 'nightly' })`) into series, keeping the
 * nights of `range`: {@link groupWorkloadNights} of the rows folded per run and workload.
 */
export function groupSeries(rows: Iterable<ResultRow>, range: NightRange = {}): Series[] {
  return groupWorkloadNights(workloadNightsOfRows(rowsOfNights(rows, range)), range);
}

function* rowsOfNights(rows: Iterable<ResultRow>, { from = '', to = '\uffff' }: NightRange): Generator<ResultRow> {
  for (const row of rows) if (row.night >= from && row.night <= to) yield row;
}

/**
 * Groups workload nights (e.g. `RunStore.streamWorkloadNights`) into series, keeping the nights
 * of `range`, in the order of their keys. They may come in any order; when a night has several
 * runs of a workload, the one started last counts.
 */
export function groupWorkloadNights(nights: Iterable<WorkloadNight>, range: NightRange = {}): Series[] {
  return [...seriesOfWorkloadNights(nights, range)].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The series of {@link groupWorkloadNights} in no set order, each workload's built only when
 * the one before was taken: what a night's judgement reads once, series after series.
 */
export function* seriesOfWorkloadNights(nights: Iterable<WorkloadNight>, { from = '', to = '\uffff' }: NightRange = {}): Generator<Series> {
  const histories = new Map<string, WorkloadHistory>();
  for (const night of nights) {
    if (night.run.night < from || night.run.night > to) continue;
    keep(locate(histories, night), night);
  }
  for (const history of histories.values()) yield* seriesOf(history);
}

/**
 * The series with only their points of `from`..`to` (inclusive): what {@link groupSeries} gives
 * for rows of those nights, from series grouped once over a longer range (a replay judges night
 * after night). A series none of whose points there reports its metric is left out, as grouping
 * those nights alone would not have found it. Binary searches: no scan of the whole range a night.
 */
export function seriesOfNights(series: readonly Series[], from: string, to: string): Series[] {
  return series.flatMap((one) => {
    const points = one.points.slice(firstPointAtOrAfter(one.points, from), firstPointAtOrAfter(one.points, `${to}\uffff`));
    return points.some((point) => point.status !== 'missing') ? [{ ...one, points }] : [];
  });
}

/**
 * The series with only their last `results + 1` points up to `night` (tonight and the results
 * before it that detection reads): what a night's judgement needs from series grouped once over a
 * long history, counted in results, not days. A series without a point reporting its metric
 * among them is left out, as {@link seriesOfNights} does. Binary searches: no scan of the history a night.
 */
export function seriesOfLastResults(series: readonly Series[], night: string, results: number): Series[] {
  return series.flatMap((one) => {
    const end = firstPointAtOrAfter(one.points, `${night}\uffff`);
    const points = one.points.slice(Math.max(0, end - results - 1), end);
    return points.some((point) => point.status !== 'missing') ? [{ ...one, points }] : [];
  });
}

function firstPointAtOrAfter(points: readonly NightPoint[], night: string): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (points[mid]!.night < night) low = mid + 1;
    else high = mid;
  }
  return low;
}

function locate(histories: Map<string, WorkloadHistory>, { run, workload, workloadVersion }: WorkloadNight): WorkloadHistory {
  // Internal grouping key: NUL never occurs in names, and concatenation is cheaper than seriesKey.
  const key = `${run.suite}\0${workload}\0${workloadVersion}\0${run.provider}\0${run.clusterShape}\0${run.instanceType ?? ''}\0${run.instanceType === undefined ? 0 : 1}\0${run.environmentName}\0${run.environmentFingerprint}`;
  let history = histories.get(key);
  if (history === undefined) {
    const identity = {
      suite: run.suite,
      workload,
      workloadVersion,
      provider: run.provider,
      clusterShape: run.clusterShape,
      instanceType: run.instanceType,
      environmentName: run.environmentName,
      environmentFingerprint: run.environmentFingerprint,
    };
    histories.set(key, (history = { identity, runs: [], okRepeats: [], disturbedRepeats: [], failedRepeats: [], metrics: new Map() }));
  }
  return history;
}

/** Appends a workload night to its history's arrays; nothing of the decoded night is kept. */
function keep(history: WorkloadHistory, { run, okRepeats, disturbedRepeats, failedRepeats, metrics }: WorkloadNight): void {
  const index = history.runs.length;
  history.runs.push(run);
  history.okRepeats.push(okRepeats);
  history.disturbedRepeats.push(disturbedRepeats);
  history.failedRepeats.push(failedRepeats);
  for (const [metric, unit, values] of metrics) {
    let kept = history.metrics.get(metric);
    if (kept === undefined) history.metrics.set(metric, (kept = { unit, starts: [], values: [] }));
    // Runs since its last report (or since the first run, for a metric first reported now: none
    // of them has a value of it) and this one, so far, start where its values end.
    while (kept.starts.length <= index) kept.starts.push(kept.values.length);
    for (const value of values) kept.values.push(value);
  }
}

function seriesOf(history: WorkloadHistory): Series[] {
  const latestByNight = new Map<string, number>();
  history.runs.forEach((run, index) => {
    const seen = latestByNight.get(run.night);
    if (seen === undefined || run.startedAt >= history.runs[seen]!.startedAt) latestByNight.set(run.night, index);
  });
  const nights = [...latestByNight.values()].sort((a, b) => (history.runs[a]!.night < history.runs[b]!.night ? -1 : history.runs[a]!.night > history.runs[b]!.night ? 1 : 0));
  return [...history.metrics].map(([metric, kept]) => {
    const identity: SeriesIdentity = { ...history.identity, metric };
    return { key: seriesKey(identity), identity, unit: kept.unit, points: nights.map((index) => pointOf(history, index, kept)) };
  });
}

function pointOf(history: WorkloadHistory, index: number, metric: MetricRuns): NightPoint {
  const run = history.runs[index]!;
  const okRepeats = history.okRepeats[index]!;
  const failedRepeats = history.failedRepeats[index]!;
  const values = valuesOf(metric, index);
  const status: PointStatus = failedRepeats > 0 ? 'failed' : okRepeats === 0 ? 'disturbed' : values.length === 0 ? 'missing' : 'ok';
  const point: NightPoint = { night: run.night, runId: run.runId, commits: run.commits, status, values, okRepeats, failedRepeats, disturbedRepeats: history.disturbedRepeats[index]! };
  return run.machineClass === undefined ? point : { ...point, machineClass: run.machineClass };
}

/** Run `index`'s values of a metric; a run after the metric's last report has none. */
function valuesOf({ starts, values }: MetricRuns, index: number): number[] {
  if (index >= starts.length) return [];
  return values.slice(starts[index]!, starts[index + 1] ?? values.length);
}
