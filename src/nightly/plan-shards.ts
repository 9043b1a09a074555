import { existsSync } from 'node:fs';
import { openHistory } from '../history/open.js';
import { writeJobSummary } from '../job-summary/job-summary.js';
import { planOutputs, renderShardPlan } from '../job-summary/plan-summary.js';
import { selectAcrossSuites } from '../runner/execute.js';
import { medianWallTimes } from '../shard/durations.js';
import { writeShardPlan } from '../shard/plan-file.js';
import { estimateWorkloads, planShards, type ShardPlan } from '../shard/plan.js';
import { loadSuite } from '../suite/suite.js';
import type { NightContext } from './context.js';

export interface ShardPlanRequest {
  shards: number;
  /** Also write the plan here (absolute), for each shard job's `nightly --shard i/N --shard-plan FILE`. */
  out?: string;
  /** Seconds of one repeat of a workload the history has not timed. */
  defaultSeconds: number;
  /** Seconds per workload besides its repeats (cluster start, restarts). */
  overheadSeconds: number;
  /** Medians over this many most recent nights. */
  nights: number;
}

/**
 * Splits the night's workloads (the config's selection, as `nightly` makes it) over shards by
 * their median wall time in the history, longest first; in a workflow the plan also becomes the
 * job summary and the matrix a step output.
 */
export async function planNightShards(context: NightContext, request: ShardPlanRequest): Promise<ShardPlan> {
  const { config } = context.loaded;
  const suites = config.suites.map((name) => loadSuite(name, { baseDir: context.loaded.baseDir, python: config.python }));
  // The same selection as `nightly`: names are checked across all suites at once.
  const selected = await selectAcrossSuites(suites, config.environment.variables, config.workloads);
  const wanted = selected.flatMap(({ suite, workloads }) => workloads.map((w) => ({ suite: suite.file.name, name: w.name })));

  // A first night has no history: every workload gets the default duration.
  const medians = existsSync(context.historyPath) ? readMedians(context.historyPath, request.nights) : new Map<string, number>();
  const plan = planShards(estimateWorkloads(wanted, medians, { repeats: config.repeats, defaultSeconds: request.defaultSeconds, overheadSeconds: request.overheadSeconds }), request.shards);
  if (request.out) writeShardPlan(request.out, plan);
  for (const s of plan.shards) {
    context.log.info(`shard ${s.index}/${plan.count}: ~${Math.round(s.seconds)} s: ${s.workloads.map((w) => `${w.name}${w.known ? '' : ' (untimed)'}`).join(', ')}`);
  }
  await writeJobSummary({ markdown: renderShardPlan(plan), annotations: [], outputs: planOutputs(plan) });
  return plan;
}

function readMedians(file: string, nights: number): Map<string, number> {
  const store = openHistory(file, { readonly: true });
  try {
    return medianWallTimes(store.runs.resultRows({ kind: 'nightly' }), nights);
  } finally {
    store.close();
  }
}
