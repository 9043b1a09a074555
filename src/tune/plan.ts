/**
 * `nightbench tune`'s plan: for every workload, the fewest repeats a night at which each of its
 * series catches a target change within a number of nights, and what that costs in cluster time
 * (repeats times the recorded duration of one repeat). Fewest repeats is the lowest cluster time:
 * a workload's nightly cost grows with its repeats and nothing else. Pure: verdicts and
 * durations in, the plan out.
 *
 * @module
 */
import type { SeriesVerdict } from '../detect/judge.js';
import { minimumDetectable, repeatsNeeded, type SensitivityPolicy } from '../detect/sensitivity.js';

export interface TuneOptions {
  /** The change to catch, relative (0.1 for 10%). */
  target: number;
  /** Within this many nights (1: on its first night). */
  nights: number;
  /** Repeats the config runs now: today's cost where the night's results do not say what ran. */
  currentRepeats: number;
  /** Unmeasured repeats run before the measured ones on each fresh cluster: they cost time too. */
  warmupRepeats: number;
}

/** One series of a workload, as the plan weighs it. */
export interface TunedSeries {
  metric: string;
  /** Cluster shape and environment, when the workload runs on more than one. */
  variant: string;
  /** The smallest change it catches within the nights now (Infinity: none that fast). */
  detectableNow: number;
  /** Fewest repeats that catch the target; absent when none up to the cap does. */
  repeats?: number;
  /** Its threshold is above the target: detection reports nothing that small, whatever the repeats. */
  thresholdAboveTarget: boolean;
}

export interface TunedWorkload {
  suite: string;
  workload: string;
  /**
   * Repeats the night ran (the most ok repeats among its series): an imported history of one value
   * a night is tuned from 1, not from what the config would run.
   */
  currentRepeats: number;
  /** Repeats at which every series that can reach the target does; absent when no series can. */
  repeats?: number;
  /** Median wall time of one repeat in the recent history; absent when none was recorded. */
  secondsPerRepeat?: number;
  /** Cluster seconds a night at `repeats` (warm-up repeats included). */
  clusterSeconds?: number;
  /** Cluster seconds a night at the current repeats. */
  currentClusterSeconds?: number;
  series: TunedSeries[];
  /** Metrics of series that no number of repeats brings to the target. */
  unreachable: string[];
}

export interface TunePlan {
  night: string;
  target: number;
  nights: number;
  currentRepeats: number;
  workloads: TunedWorkload[];
  /** Series of the night without a sensitivity: too new at their level, or no usable value tonight. */
  unjudgedSeries: number;
  /** The night at its level from which a series' sensitivity is known (`reachKnownNights`), when some series are too new. */
  reachKnownFrom?: number;
  /**
   * Cluster seconds a night over the workloads with a recorded duration: each at its planned
   * repeats (at the current ones when no series of it can reach the target), and all at the current.
   */
  clusterSeconds: number;
  currentClusterSeconds: number;
  /** One repeats setting for the whole suite (the config has one): the largest workload's need. */
  suiteRepeats?: number;
  suiteClusterSeconds?: number;
}

/**
 * The plan from the judged verdicts of a night (`verdicts` with `detectable`) and the median
 * seconds of one repeat per `suite/workload` (`secondsPerRepeat`).
 */
export function planRepeats(night: string, verdicts: readonly SeriesVerdict[], secondsPerRepeat: ReadonlyMap<string, number>, policy: SensitivityPolicy, options: TuneOptions): TunePlan {
  const byWorkload = new Map<string, { suite: string; workload: string; ranRepeats: number; series: TunedSeries[] }>();
  for (const verdict of verdicts) {
    if (verdict.detectable === undefined) continue;
    const { suite, workload, metric, clusterShape, environmentName } = verdict.identity;
    const basis = verdict.detectable.basis;
    const key = `${suite}/${workload}`;
    let entry = byWorkload.get(key);
    if (entry === undefined) byWorkload.set(key, (entry = { suite, workload, ranRepeats: 0, series: [] }));
    entry.ranRepeats = Math.max(entry.ranRepeats, verdict.detectable.repeats);
    const thresholdAboveTarget = basis.threshold > options.target + 1e-12;
    const repeats = thresholdAboveTarget ? undefined : repeatsNeeded(basis, policy, options.target, options.nights);
    entry.series.push({
      metric, variant: `${clusterShape} ${environmentName}`, detectableNow: minimumDetectable(basis, policy, options.nights), thresholdAboveTarget, ...(repeats === undefined ? {} : { repeats }),
    });
  }
  const workloads = [...byWorkload.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, entry]): TunedWorkload => {
    const reachable = entry.series.flatMap((s) => (s.repeats === undefined ? [] : [s.repeats]));
    const repeats = reachable.length > 0 ? Math.max(...reachable) : undefined;
    const seconds = secondsPerRepeat.get(key);
    const cost = (n: number) => (seconds === undefined ? undefined : (n + options.warmupRepeats) * seconds);
    const currentRepeats = entry.ranRepeats > 0 ? entry.ranRepeats : options.currentRepeats;
    return {
      suite: entry.suite, workload: entry.workload, currentRepeats, series: entry.series,
      unreachable: [...new Set(entry.series.filter((s) => s.repeats === undefined).map((s) => s.metric))].sort(),
      ...(repeats === undefined ? {} : { repeats }),
      ...(seconds === undefined ? {} : { secondsPerRepeat: seconds, currentClusterSeconds: cost(currentRepeats) }),
      ...(repeats === undefined || seconds === undefined ? {} : { clusterSeconds: cost(repeats) }),
    };
  });
  const timed = workloads.filter((w) => w.secondsPerRepeat !== undefined);
  const needs = workloads.flatMap((w) => (w.repeats === undefined ? [] : [w.repeats]));
  const suiteRepeats = needs.length > 0 ? Math.max(...needs) : undefined;
  return {
    night, target: options.target, nights: options.nights, currentRepeats: options.currentRepeats, workloads,
    unjudgedSeries: verdicts.filter((v) => v.detectable === undefined).length,
    ...reachKnownOf(verdicts),
    clusterSeconds: sum(timed.map((w) => w.clusterSeconds ?? w.currentClusterSeconds!)),
    currentClusterSeconds: sum(timed.map((w) => w.currentClusterSeconds!)),
    ...(suiteRepeats === undefined ? {} : { suiteRepeats, suiteClusterSeconds: sum(timed.map((w) => (suiteRepeats + options.warmupRepeats) * w.secondsPerRepeat!)) }),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function reachKnownOf(verdicts: readonly SeriesVerdict[]): { reachKnownFrom?: number } {
  const from = verdicts.find((v) => v.reachKnownFrom !== undefined)?.reachKnownFrom;
  return from === undefined ? {} : { reachKnownFrom: from };
}
