import type { ResultRow } from '../history/types.js';
import { summarize } from '../stats/index.js';
import { workloadKey } from './plan.js';

/**
 * The median wall time of one repeat of each workload (keyed `suite/name`) over the last
 * `nights` nights the rows cover: recent enough to follow a workload that got slower, long
 * enough that one noisy night does not reshuffle the shards. Failed repeats are left out.
 */
export function medianWallTimes(rows: readonly ResultRow[], nights = 7): Map<string, number> {
  const timed = rows.filter((r) => r.metric === 'wall_time' && r.value !== null && (r.status === 'ok' || r.status === 'disturbed'));
  const recent = new Set([...new Set(timed.map((r) => r.night))].sort().slice(-nights));
  const byWorkload = new Map<string, number[]>();
  for (const row of timed) {
    if (!recent.has(row.night)) continue;
    const key = workloadKey(row.suite, row.workload);
    const values = byWorkload.get(key) ?? [];
    values.push(row.value!);
    byWorkload.set(key, values);
  }
  return new Map([...byWorkload].map(([key, values]) => [key, summarize(values).median]));
}
