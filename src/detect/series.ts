/**
 * Stage 1 of detection: history rows grouped into series, one point per night. Pure: no I/O.
 *
 * A series is one workload's metric in one comparable environment (suite, workload version,
 * cluster provider and shape, instance type, environment name and fingerprint): values from
 * anywhere else are never compared with it.
 *
 * @module
 */
import type { RepeatStatus, ResultRow, SeriesIdentity } from '../history/types.js';

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

/** One run of one workload, as the rows tell it. */
interface WorkloadRun {
  runId: string;
  night: string;
  startedAt: string;
  commits: Record<string, string>;
  machineClass?: string;
  repeats: Map<number, RepeatStatus>;
  values: Map<string, number[]>;
}

/** Every run of one workload in one comparable environment; its metrics are the union over runs. */
interface WorkloadHistory {
  identity: Omit<SeriesIdentity, 'metric'>;
  runs: Map<string, WorkloadRun>;
  units: Map<string, string | null>;
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
 * nights of `range`. Rows may come in any order; when a night has several runs of a workload,
 * the one started last counts. Cost: two string comparisons per row outside the range, one map
 * lookup per row inside it in the usual order (rows of a repeat and of a run together).
 */
export function groupSeries(rows: Iterable<ResultRow>, range: NightRange = {}): Series[] {
  const histories = new Map<string, WorkloadHistory>();
  const from = range.from ?? '';
  const to = range.to ?? '\uffff';
  let previousRow: ResultRow | undefined;
  let current: { history: WorkloadHistory; run: WorkloadRun } | undefined;
  for (const row of rows) {
    if (row.night < from || row.night > to) continue;
    if (current === undefined || previousRow === undefined || row.runId !== previousRow.runId || row.workload !== previousRow.workload) {
      current = locate(histories, row);
    }
    previousRow = row;
    const { history, run } = current;
    // A repeat has one row per metric; a failed one a single row without a metric.
    if (!run.repeats.has(row.repeat)) run.repeats.set(row.repeat, row.status);
    if (row.metric === null) continue;
    if (!history.units.has(row.metric)) history.units.set(row.metric, row.unit);
    let values = run.values.get(row.metric);
    if (values === undefined) run.values.set(row.metric, (values = []));
    if (row.status === 'ok' && row.value !== null) values.push(row.value);
  }
  const series: Series[] = [];
  for (const history of histories.values()) series.push(...seriesOf(history));
  return series.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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

function locate(histories: Map<string, WorkloadHistory>, row: ResultRow): { history: WorkloadHistory; run: WorkloadRun } {
  // Internal grouping key: NUL never occurs in names, and concatenation is cheaper than seriesKey.
  const key = `${row.suite}\0${row.workload}\0${row.workloadVersion}\0${row.provider}\0${row.clusterShape}\0${row.instanceType ?? ''}\0${row.instanceType === undefined ? 0 : 1}\0${row.environmentName}\0${row.environmentFingerprint}`;
  let history = histories.get(key);
  if (history === undefined) {
    const identity = {
      suite: row.suite,
      workload: row.workload,
      workloadVersion: row.workloadVersion,
      provider: row.provider,
      clusterShape: row.clusterShape,
      instanceType: row.instanceType,
      environmentName: row.environmentName,
      environmentFingerprint: row.environmentFingerprint,
    };
    histories.set(key, (history = { identity, runs: new Map(), units: new Map() }));
  }
  let run = history.runs.get(row.runId);
  if (run === undefined) {
    run = { runId: row.runId, night: row.night, startedAt: row.startedAt, commits: row.commits, machineClass: row.machineClass, repeats: new Map(), values: new Map() };
    history.runs.set(row.runId, run);
  }
  return { history, run };
}

function seriesOf(history: WorkloadHistory): Series[] {
  const latestByNight = new Map<string, WorkloadRun>();
  for (const run of history.runs.values()) {
    const seen = latestByNight.get(run.night);
    if (seen === undefined || run.startedAt >= seen.startedAt) latestByNight.set(run.night, run);
  }
  const nights = [...latestByNight.values()].sort((a, b) => (a.night < b.night ? -1 : a.night > b.night ? 1 : 0));
  return [...history.units].map(([metric, unit]) => {
    const identity: SeriesIdentity = { ...history.identity, metric };
    return { key: seriesKey(identity), identity, unit, points: nights.map((run) => pointOf(run, metric)) };
  });
}

function pointOf(run: WorkloadRun, metric: string): NightPoint {
  let okRepeats = 0;
  let failedRepeats = 0;
  let disturbedRepeats = 0;
  for (const status of run.repeats.values()) {
    if (status === 'ok') okRepeats++;
    else if (status === 'disturbed') disturbedRepeats++;
    else failedRepeats++;
  }
  const values = run.values.get(metric) ?? [];
  const status: PointStatus = failedRepeats > 0 ? 'failed' : okRepeats === 0 ? 'disturbed' : values.length === 0 ? 'missing' : 'ok';
  const point: NightPoint = { night: run.night, runId: run.runId, commits: run.commits, status, values, okRepeats, failedRepeats, disturbedRepeats };
  return run.machineClass === undefined ? point : { ...point, machineClass: run.machineClass };
}
