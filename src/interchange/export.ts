/**
 * `exportHistory`: the history written out for other tools, `nightbench history export`. CSV
 * holds every measured value of the nightly series; BMF, which describes one run, holds one
 * night: each series' point of that night, as detection reads it (the night's latest run).
 *
 * @module
 */
import { groupSeries } from '../detect/series.js';
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import { toBmf } from './bmf.js';
import { toCsv } from './csv.js';

export type ExportFormat = 'bmf' | 'csv';
export const exportFormats: readonly ExportFormat[] = ['bmf', 'csv'];

export interface ExportOptions {
  format: ExportFormat;
  suite?: string;
  /** BMF: the night (default: the latest); CSV: the first night written (default: all). */
  night?: string;
}

export interface ExportResult {
  text: string;
  /** The night a BMF document holds. */
  night?: string;
  values: number;
}

export function exportHistory(store: Pick<HistoryStore, 'runs'>, options: ExportOptions): ExportResult {
  store.runs.assertSuiteRecorded(options.suite);
  if (options.format === 'csv') {
    const rows = store.runs.resultRows({ kind: 'nightly', suite: options.suite, sinceNight: options.night });
    const declared = new Map(store.runs.metricDirections().map((d) => [`${d.suite}\0${d.workload}\0${d.metric}`, d.direction]));
    const text = toCsv(rows, (row) => declared.get(`${row.suite}\0${row.workload}\0${row.metric}`) ?? '');
    return { text, values: rows.filter((row) => row.value !== null).length };
  }
  const night = options.night ?? store.runs.latestNightlyNight(options.suite);
  if (!night) throw new NightbenchError('store', `history export: no nightly run${options.suite ? ` of suite ${options.suite}` : ''} in the history`);
  const rows = store.runs.resultRows({ kind: 'nightly', suite: options.suite, sinceNight: night });
  const document = toBmf(groupSeries(rows, { from: night, to: night }), night);
  const values = Object.values(document).reduce((sum, measures) => sum + Object.keys(measures).length, 0);
  return { text: `${JSON.stringify(document, null, 2)}\n`, night, values };
}
