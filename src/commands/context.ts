import { loadConfig, resolvePath, type ConfigOverrides } from '../config/load.js';
import { requireHistoryFile } from '../history/files.js';
import type { HistoryStore } from '../history/store.js';
import { stderrLog } from '../log.js';
import { openConfiguredHistory, type NightContext } from '../nightly/context.js';
import type { CommonOptions } from './command.js';

/** A command's context is the one every nightly step takes, so a command hands it down as it is. */
export type CommandContext = NightContext;

export { openConfiguredHistory as openContextHistory } from '../nightly/context.js';

/** The history of a command that only reads what was recorded (`command` names it in the error): it must exist already. */
export function openRecordedHistory(context: CommandContext, command: string): HistoryStore {
  requireHistoryFile(context.historyPath, command);
  return openConfiguredHistory(context);
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
