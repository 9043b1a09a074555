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

/** The local history, waiting out another writer as long as the config says. */
export function openConfiguredHistory(context: Pick<NightContext, 'loaded' | 'historyPath'>): HistoryStore {
  return openHistory(context.historyPath, { busyTimeoutMs: context.loaded.config.history.busyTimeoutMs });
}
