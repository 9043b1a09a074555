/**
 * `importHistory`: another tool's history into nightbench's, callable from code (replay, the
 * real-histories bench) as from `nightbench history import`. Reads the source a file at a time
 * and writes about 100,000 values per transaction, so memory stays bounded on large asv folders
 * and an interrupted import keeps the batches it wrote (the next import skips what is there).
 *
 * @module
 */
import type { DeclaredDirection } from '../history/regression-queries.js';
import type { ImportRunRow } from '../history/import-queries.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { addDirections, historyRowOf } from './history-rows.js';
import { readSource, type ReadOptions } from './read-source.js';
import { TupleMap } from './tuple-map.js';
import type { InterchangeFormat } from './types.js';

export interface ImportOptions extends Partial<ReadOptions> {
  /** The format, when detection should not decide. */
  format?: InterchangeFormat;
  /** The suite of formats that name none (default: the format's name). */
  suite?: string;
  /** The repository the commits are recorded under (default: the suite). */
  repo?: string;
  log?: Log;
  /** Values per transaction: large transactions are what makes a bulk import fast (the bench: bench/import.ts). */
  batchValues?: number;
  /** Wall clock for progress (injected so tests need none). */
  now?: () => number;
}

export interface ImportSummary {
  format: InterchangeFormat;
  source: string;
  files: number;
  runs: number;
  /** Runs that were not in the history before. */
  newRuns: number;
  values: number;
  /** Values that were not in the history before (0 when the same data is imported again). */
  newValues: number;
  /** Results the tool holds without a value (failed or skipped benchmarks), not imported. */
  missing: number;
  suites: string[];
  machines: string[];
  series: number;
  nights: { first: string; last: string } | null;
}

const progressEveryMs = 2000;

export function importHistory(store: Pick<HistoryStore, 'runs'>, source: string, options: ImportOptions = {}): ImportSummary {
  const reading = readSource(source, options.format, { machine: options.machine ?? 'default', commit: options.commit });
  const suite = options.suite ?? reading.format;
  const placement = { format: reading.format, suite, repo: options.repo ?? suite, source };
  const now = options.now ?? Date.now;
  const summary: ImportSummary = {
    format: reading.format, source, files: reading.files, runs: 0, newRuns: 0, values: 0, newValues: 0, missing: 0, suites: [], machines: [], series: 0, nights: null,
  };
  const suites = new Set<string>();
  const machines = new Set<string>();
  const series = new TupleMap<true>();
  const directions = new TupleMap<DeclaredDirection>();
  let batch: ImportRunRow[] = [];
  let valuesInBatch = 0;
  let filesRead = 0;
  let lastProgress = now();
  const flush = () => {
    const written = store.runs.importRuns(batch);
    summary.newRuns += written.newRuns;
    summary.newValues += written.newValues;
    batch = [];
    valuesInBatch = 0;
  };
  for (const { runs } of reading.runs()) {
    for (const run of runs) {
      const row = historyRowOf(run, placement);
      batch.push(row);
      addDirections(directions, run, suite);
      suites.add(row.suite);
      machines.add(run.machine);
      for (const v of run.values) series.set([row.suite, row.clusterShape, row.environmentName, v.workload, v.workloadVersion, v.metric], true);
      summary.runs++;
      summary.values += run.values.length;
      valuesInBatch += run.values.length;
      summary.missing += run.missing;
      if (!summary.nights || row.night < summary.nights.first) summary.nights = { first: row.night, last: summary.nights?.last ?? row.night };
      if (row.night > summary.nights.last) summary.nights.last = row.night;
    }
    filesRead++;
    if (valuesInBatch >= (options.batchValues ?? 100_000)) flush();
    if (now() - lastProgress >= progressEveryMs) {
      lastProgress = now();
      options.log?.info(`import: ${filesRead}/${reading.files} files, ${summary.values} values`);
    }
  }
  flush();
  store.runs.recordMetricDirections(directions.values());
  return { ...summary, suites: [...suites].sort(), machines: [...machines].sort(), series: series.size };
}
