import { lastLines } from '../errors.js';
import type { ResultRow } from '../history/types.js';
import { analyzeAb, type AbAnalysis, type AbFailure, type AbObservation } from './analysis.js';
import type { AbCost, AbReportHeader } from './render.js';
import type { AbTestRecord } from './test-record.js';

/** An A/B's rows: the history's result rows, each with the group of its run. */
export type AbRow = ResultRow & { group: string };

export interface AbReport {
  header: AbReportHeader;
  analysis: AbAnalysis;
}

/**
 * The analysis of a recorded A/B from its rows alone, so that it can be redone at any time. Only
 * repeats that ran cleanly count: a failed repeat has no value, and a disturbed one (a worker left)
 * measured a different cluster; how many were left out is said in the notes, and a workload none
 * of whose repeats in a group ran cleanly is a failure of that group, told apart from the tests.
 */
export function reportAb(record: AbTestRecord, rows: readonly AbRow[]): AbReport {
  const observations: AbObservation[] = rows.flatMap((row) =>
    row.status === 'ok' && row.metric !== null && row.value !== null
      ? [{ group: row.group, suite: row.suite, workload: row.workload, metric: row.metric, unit: row.unit ?? '', value: row.value }]
      : [],
  );
  const { ab, groups, directions, clusterShapes } = record.config;
  const failures = failedWorkloads(rows);
  const analysis = analyzeAb({ groups, observations, failures, directions, options: { fdr: ab.fdr, confidence: ab.confidence, resamples: ab.resamples, seed: record.seed } });
  const failed = (row: AbRow) => failures.some((f) => f.group === row.group && f.suite === row.suite && f.workload === row.workload);
  const leftOut = countRepeats(rows.filter((row) => row.status !== 'ok' && !failed(row)));
  if (leftOut.length > 0) analysis.notes.push(`left out: ${leftOut.join(', ')}`);
  if (record.status === 'incomplete' || record.status === 'running') analysis.notes.unshift(partialNote(record, rows));
  return {
    header: { id: record.id, createdAt: record.createdAt, status: record.status, groups, repeats: ab.repeats, order: record.order, seed: record.seed, clusterShapes, fdr: ab.fdr, confidence: ab.confidence, ...(record.finishedAt ? { cost: cost(record, record.finishedAt) } : {}) },
    analysis,
  };
}

/** From the first slot to the last (createdAt is taken once every environment is prepared), and what the schedule ran. */
function cost(record: AbTestRecord, finishedAt: string): AbCost {
  const seconds = (Date.parse(finishedAt) - Date.parse(record.createdAt)) / 1000;
  return { seconds, clusters: record.schedule.length, repeats: scheduledRepeats(record), parallel: record.config.ab.maxParallel };
}

const scheduledRepeats = (record: AbTestRecord) => record.schedule.reduce((sum, slot) => sum + slot.count, 0);

/** An A/B that stopped (or has not yet finished): how much of its schedule the analysis rests on. */
function partialNote(record: AbTestRecord, rows: readonly AbRow[]): string {
  const scheduled = scheduledRepeats(record);
  const recorded = new Set(rows.map((row) => `${row.group}\u0000${row.suite}\u0000${row.workload}\u0000${row.repeat}`)).size;
  const why = record.status === 'running' ? 'is still running (or its runner died and no start since has marked it)' : 'stopped before it finished';
  return `partial: this A/B ${why}; ${recorded} of ${scheduled} scheduled repeats were recorded, and the analysis covers only those`;
}

/** Each group x workload without one clean repeat, with its repeats by status and its last error. */
function failedWorkloads(rows: readonly AbRow[]): AbFailure[] {
  const byWorkload = new Map<string, AbRow[]>();
  for (const row of rows) {
    const key = `${row.group}\u0000${row.suite}\u0000${row.workload}`;
    const list = byWorkload.get(key) ?? [];
    list.push(row);
    byWorkload.set(key, list);
  }
  return [...byWorkload.values()].flatMap((workloadRows) => {
    if (workloadRows.some((row) => row.status === 'ok')) return [];
    const { group, suite, workload } = workloadRows[0]!;
    // A repeat has one row per metric, or one row without a metric when it recorded none.
    const byRepeat = new Map(workloadRows.map((row) => [row.repeat, row]));
    const repeats: AbFailure['repeats'] = {};
    for (const row of byRepeat.values()) if (row.status !== 'ok') repeats[row.status] = (repeats[row.status] ?? 0) + 1;
    // The last line of a traceback says what went wrong, as the progress log prints it.
    const error = [...byRepeat].sort(([a], [b]) => a - b).flatMap(([, row]) => (row.error ? [lastLines(row.error)] : [])).at(-1);
    return [{ group, suite, workload, repeats, ...(error === undefined ? {} : { error }) }];
  });
}

/** "2 failed repeats of B spill", one entry per group x workload x status. */
function countRepeats(rows: readonly AbRow[]): string[] {
  const counts = new Map<string, Set<number>>();
  for (const row of rows) {
    const key = `${row.status} repeats of ${row.group} ${row.workload}`;
    counts.set(key, (counts.get(key) ?? new Set()).add(row.repeat));
  }
  return [...counts].map(([key, repeats]) => `${repeats.size} ${key}`);
}
