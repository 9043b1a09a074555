import { loadConfig, resolvePath, type ConfigOverrides, type LoadedConfig } from '../config/load.js';
import { openHistory } from '../history/open.js';
import type { HistoryStore } from '../history/store.js';
import { stderrLog, type Log } from '../log.js';
import type { CommonOptions } from './command.js';

export interface CommandContext {
  loaded: LoadedConfig;
  historyPath: string;
  log: Log;
  resolve(relative: string): string;
}

/** What every config-reading command starts with: the validated config, paths and a log. */
export function commandContext(options: CommonOptions, overrides: ConfigOverrides = {}): CommandContext {
  // An empty --config (an unset workflow input) means the default, as no --config does.
  const loaded = loadConfig({ file: options.config || undefined, overrides });
  const resolve = (relative: string) => resolvePath(loaded, relative);
  return {
    loaded,
    historyPath: options.db ? resolve(options.db) : resolve(loaded.config.history.path),
    log: stderrLog({ verbose: options.verbose, quiet: options.quiet }),
    resolve,
  };
}

export function openContextHistory(context: CommandContext): HistoryStore {
  return openHistory(context.historyPath, { busyTimeoutMs: context.loaded.config.history.busyTimeoutMs });
}
