import type { ResultRow } from '../history/types.js';
import { summarize } from '../stats/index.js';

/**
 * How much the first measured repeat of each run differs from the rest: per workload and metric,
 * repeat 1's value divided by the median of the other ok repeats of the same run, one ratio a run.
 * 1 means the first repeat is like the others.
 */
export function firstRepeatRatios(rows: readonly ResultRow[], metrics: readonly string[]): Map<string, Record<string, number[]>> {
  const byRun = new Map<string, { workload: string; metric: string; first?: number; others: number[] }>();
  for (const row of rows) {
    if (row.status !== 'ok' || row.value === null || row.metric === null || !metrics.includes(row.metric)) continue;
    const key = `${row.runId}\0${row.workload}\0${row.metric}`;
    const entry = byRun.get(key) ?? { workload: row.workload, metric: row.metric, others: [] };
    byRun.set(key, entry);
    if (row.repeat === 1) entry.first = row.value;
    else entry.others.push(row.value);
  }
  const ratios = new Map<string, Record<string, number[]>>();
  for (const entry of byRun.values()) {
    if (entry.first === undefined || entry.others.length === 0) continue;
    const perMetric = ratios.get(entry.workload) ?? {};
    ratios.set(entry.workload, perMetric);
    (perMetric[entry.metric] ??= []).push(entry.first / summarize(entry.others).median);
  }
  return ratios;
}

/** {@link firstRepeatRatios}, each workload and metric summed up by the median over runs. */
export function firstRepeatRatio(rows: readonly ResultRow[], metrics: readonly string[]): Map<string, Record<string, number>> {
  const ratios = firstRepeatRatios(rows, metrics);
  return new Map([...ratios].map(([workload, perMetric]) => [workload, Object.fromEntries(Object.entries(perMetric).map(([m, r]) => [m, summarize(r).median]))]));
}
