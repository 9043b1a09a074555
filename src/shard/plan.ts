/**
 * Shard planning: splits a night's workloads over N machines so that they finish at about the
 * same time. Pure: the durations come from the history through the caller.
 */
import { NightbenchError } from '../errors.js';
import { formatCount } from '../format/index.js';

/** A workload with the seconds it is expected to take in a shard (all its repeats and its cluster start). */
export interface WorkloadEstimate {
  suite: string;
  name: string;
  seconds: number;
  /** False when the history had no duration for it and the default was used. */
  known: boolean;
}

export interface Shard {
  /** 1-based, as in `--shard 2/3`. */
  index: number;
  seconds: number;
  workloads: WorkloadEstimate[];
}

export interface ShardPlan {
  /** Shards that received work: never more than there are workloads. */
  count: number;
  shards: Shard[];
}

export interface EstimateOptions {
  repeats: number;
  /** Seconds of one repeat of a workload the history has never timed. */
  defaultSeconds: number;
  /** Seconds each workload costs besides its repeats: a fresh cluster, worker restarts. */
  overheadSeconds: number;
}

/** `repeats x median wall time + overhead` for every workload; `medians` is keyed by `suite/name`. */
export function estimateWorkloads(workloads: readonly { suite: string; name: string }[], medians: ReadonlyMap<string, number>, options: EstimateOptions): WorkloadEstimate[] {
  return workloads.map(({ suite, name }) => {
    const median = medians.get(workloadKey(suite, name));
    return { suite, name, known: median !== undefined, seconds: options.repeats * (median ?? options.defaultSeconds) + options.overheadSeconds };
  });
}

export function workloadKey(suite: string, name: string): string {
  return `${suite}/${name}`;
}

/**
 * Longest processing time first: the longest workload goes to the least loaded shard, and so
 * on down. Within 4/3 of the best possible longest shard, and the same input always gives the
 * same plan (ties go by name, then to the lowest shard), so every job of a workflow agrees.
 */
export function planShards(estimates: readonly WorkloadEstimate[], requested: number): ShardPlan {
  if (!Number.isInteger(requested) || requested < 1) throw new NightbenchError('usage', `--shards must be a whole number of at least 1, got ${requested}`);
  const count = Math.max(1, Math.min(requested, estimates.length));
  const shards: Shard[] = Array.from({ length: count }, (_, i) => ({ index: i + 1, seconds: 0, workloads: [] }));
  const longestFirst = [...estimates].sort((a, b) => b.seconds - a.seconds || workloadKey(a.suite, a.name).localeCompare(workloadKey(b.suite, b.name)));
  for (const estimate of longestFirst) {
    const lightest = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    lightest.workloads.push(estimate);
    lightest.seconds += estimate.seconds;
  }
  return { count, shards };
}

/** Parses `--shard i/N`. */
export function parseShardSpec(spec: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(spec);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new NightbenchError('usage', `--shard must be i/N with 1 <= i <= N, such as 2/3; got "${spec}"`);
  return { index, count };
}

/**
 * The workloads of `suite` that shard `index` of the plan runs, in the order given. A workload
 * the plan does not know (it appeared after planning) runs in shard 1, so none is skipped.
 */
export function selectShard<W extends { name: string }>(workloads: readonly W[], plan: ShardPlan, index: number, suite: string): W[] {
  const shard = plan.shards.find((s) => s.index === index);
  if (!shard) throw new NightbenchError('usage', `shard ${index} is not in the plan, which has ${formatCount(plan.count, 'shard')}`);
  const planned = new Map(plan.shards.flatMap((s) => s.workloads.map((w) => [workloadKey(w.suite, w.name), s.index] as const)));
  return workloads.filter((w) => (planned.get(workloadKey(suite, w.name)) ?? 1) === index);
}

/** The `strategy.matrix` a workflow reads from `shard plan --json`: one entry per shard. */
export function shardMatrix(plan: ShardPlan): { include: { shard: string; index: number; workloads: string; seconds: number }[] } {
  return {
    include: plan.shards.map((s) => ({
      shard: `${s.index}/${plan.count}`,
      index: s.index,
      workloads: s.workloads.map((w) => w.name).join(','),
      seconds: Math.round(s.seconds),
    })),
  };
}
