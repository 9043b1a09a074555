import type { LoadedConfig } from '../config/load.js';
import { openHistory } from '../history/open.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';

/** What every step of the nightly starts from: the validated config, the local history file and a log. */
export interface NightContext {
  loaded: LoadedConfig;
  /** The local SQLite history the step reads or writes. */
  historyPath: string;
  log: Log;
  /** A path of the command line or the config, made absolute against the config's folder. */
  resolve(relative: string): string;
}

/**
 * The local history, waiting out another writer as long as the config says. The first wait of a
 * write is logged: a command held up for minutes by a merge or a save would otherwise look hung.
 */
export function openConfiguredHistory(context: Pick<NightContext, 'loaded' | 'historyPath' | 'log'>): HistoryStore {
  return openHistory(context.historyPath, {
    busyTimeoutMs: context.loaded.config.history.busyTimeoutMs,
    onBusyWait: (_waitMs, attempt, policy) => {
      if (attempt === 1) context.log.warn(`history database ${context.historyPath} is locked by another writer; waiting for it (up to ${Math.round(policy.budgetMs / 1000)} s)`);
    },
  });
}
