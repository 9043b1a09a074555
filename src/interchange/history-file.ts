/**
 * `history import` and `history export` on the history file: open it, bring another tool's
 * history in or write it out, close it. The commands only parse their flags and print.
 *
 * @module
 */
import { requireHistoryFile } from '../history/files.js';
import { openHistory } from '../history/open.js';
import { exportHistory, type ExportOptions, type ExportResult } from './export.js';
import { importHistory, type ImportOptions, type ImportSummary } from './import.js';

/** The local history and how long to wait out another writer (the config's `history` section). */
export interface HistoryFile {
  path: string;
  busyTimeoutMs: number;
}

/** Imports `source` into the history: the summary, and its line for people. */
export function importIntoHistory(history: HistoryFile, source: string, options: ImportOptions): { data: ImportSummary; text: string } {
  const store = openHistory(history.path, { busyTimeoutMs: history.busyTimeoutMs });
  try {
    const summary = importHistory(store, source, options);
    const range = summary.nights ? ` over ${summary.nights.first}..${summary.nights.last}` : '';
    const missing = summary.missing > 0 ? `; ${summary.missing} results without a value left out` : '';
    return {
      data: summary,
      text: `imported ${summary.format} from ${summary.source}: ${summary.files} files, ${summary.runs} runs (${summary.newRuns} new), ${summary.values} values (${summary.newValues} new) in ${summary.series} series${range}${missing}`,
    };
  } finally {
    store.close();
  }
}

/** The history written out for other tools; it must exist (an export never creates one). */
export function exportFromHistory(history: HistoryFile, options: ExportOptions): ExportResult {
  requireHistoryFile(history.path, 'history export');
  const store = openHistory(history.path, { busyTimeoutMs: history.busyTimeoutMs });
  try {
    return exportHistory(store, options);
  } finally {
    store.close();
  }
}
