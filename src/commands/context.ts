import { loadConfig, resolvePath, type ConfigOverrides } from '../config/load.js';
import { stderrLog } from '../log.js';
import type { NightContext } from '../nightly/context.js';
import type { CommonOptions } from './command.js';

/** A command's context is the one every nightly step takes, so a command hands it down as it is. */
export type CommandContext = NightContext;

export { openConfiguredHistory as openContextHistory } from '../nightly/context.js';

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
