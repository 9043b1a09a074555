/**
 * `nightbench run`: the configured suites once, recorded as kind "run" (outside the nightly
 * series). Every input error (an unknown workload) surfaces before the history is opened, so a
 * bad command line creates no database.
 *
 * @module
 */
import type { LoadedConfig } from '../config/load.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { executeRuns, prepareExecution, type RunReport } from './execute.js';

export async function runSuitesOnce(loaded: LoadedConfig, openStore: () => HistoryStore, log: Log, options: { night?: string; signal?: AbortSignal }): Promise<RunReport[]> {
  const prepared = await prepareExecution(loaded, log, { night: options.night ?? 'now' });
  const store = openStore();
  try {
    return await executeRuns(loaded, store, log, { kind: 'run', night: options.night, signal: options.signal, prepared });
  } finally {
    store.close();
  }
}
