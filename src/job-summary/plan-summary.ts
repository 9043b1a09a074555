/** The shard plan as a job summary and the outputs the shard matrix reads. Pure. */
import { shardMatrix, type ShardPlan } from '../shard/plan.js';
import { escape } from './night-summary.js';
import { formatCount, formatMinutes } from '../format/index.js';

export function renderShardPlan(plan: ShardPlan): string {
  const untimed = plan.shards.flatMap((s) => s.workloads).filter((w) => !w.known).length;
  const lines = [
    `## nightbench: ${formatCount(plan.count, 'shard')}`,
    '',
    `Balanced by median wall time over recent nights, longest first${untimed ? `; ${formatCount(untimed, 'workload')} never timed got the default` : ''}.`,
    '',
    '| shard | estimated minutes | workloads |',
    '|---|--:|---|',
    ...plan.shards.map((s) => `| ${s.index}/${plan.count} | ${formatMinutes(s.seconds)} | ${escape(s.workloads.map((w) => `${w.suite}/${w.name}${w.known ? '' : ' (untimed)'}`).join(', '))} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `matrix` (for `strategy.matrix: fromJSON(...)`) and `shards`, the count the merge expects. */
export function planOutputs(plan: ShardPlan): Record<string, string> {
  return { matrix: JSON.stringify(shardMatrix(plan)), shards: String(plan.count) };
}
