import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { parseJsonFile, validate } from '../validation.js';
import { NightbenchError } from '../errors.js';
import { parseShardSpec, selectShard, type ShardPlan } from './plan.js';
import { formatCount } from '../format/index.js';

const estimateSchema = z.strictObject({ suite: z.string().min(1), name: z.string().min(1), seconds: z.number().nonnegative(), known: z.boolean() });

/** The plan file `shard plan --out` writes and `nightly --shard-plan` reads: every shard job of a workflow reads the same plan. */
export const shardPlanSchema = z.strictObject({
  count: z.number().int().min(1),
  shards: z.array(z.strictObject({ index: z.number().int().min(1), seconds: z.number().nonnegative(), workloads: z.array(estimateSchema) })),
});

export function writeShardPlan(file: string, plan: ShardPlan): void {
  writeFileSync(file, `${JSON.stringify(plan, null, 2)}\n`);
}

export function readShardPlan(file: string): ShardPlan {
  return validate(shardPlanSchema, parseJsonFile(file), file);
}

/**
 * What `nightly --shard i/N --shard-plan FILE` hands the runner: the shard's label for the
 * history and the filter that keeps only its workloads.
 */
export function shardSelection(spec: string, planFile: string | undefined): { shard: string; pick: <W extends { name: string }>(suite: string, workloads: W[]) => W[] } {
  const { index, count } = parseShardSpec(spec);
  if (!planFile) throw new NightbenchError('usage', `--shard ${spec} needs --shard-plan FILE, the plan \`nightbench shard plan --out FILE\` wrote`);
  const plan = readShardPlan(planFile);
  if (plan.count !== count) throw new NightbenchError('usage', `--shard ${spec}: ${planFile} plans ${formatCount(plan.count, 'shard')}, not ${count}`);
  return { shard: spec, pick: (suite, workloads) => selectShard(workloads, plan, index, suite) };
}
