import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';
import { NightbenchError, pathError } from './errors.js';
import { harnessVersion } from './version.js';

/**
 * The command the arguments ask for (`help X` asks for X's help, `viaHelp`): the first word that is
 * not an option, as the program's own options (--debug, --help, --version) take no value.
 */
function requestedCommand(argv: string[]): { name: string | undefined; viaHelp: boolean } {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? { name: words[1], viaHelp: true } : { name: words[0], viaHelp: false };
}

/**
 * commander's own usage errors (an unknown command or option, a missing value) as one line of the
 * form every other error has: commander writes "error: X", then "(Did you mean Y?)" on a line of
 * its own, and a script or a log reader should not have to join them.
 */
function usageErrorLine(message: string): string {
  return `nightbench: ${message.trim().replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`;
}

/**
 * `nightbench <command>`: each command is a module of src/commands that registers its own
 * options and returns an exit code; only the one asked for is imported, the others are listed by
 * their summary. Errors a user can act on print one line; bugs keep their stack.
 */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('nightbench')
    .description('Catches performance regressions in distributed software: nightly suites on real clusters, history, detection, A/B tests and pages.')
    .version(harnessVersion)
    .option('--debug', 'print stack traces of errors')
    // Inherited by every command registered below, so their usage errors read the same.
    .configureOutput({ outputError: (message, write) => write(usageErrorLine(message)) })
    .exitOverride();
  let exitCode = 0;
  const { name: requested, viaHelp } = requestedCommand(argv);
  // commander answers `help X` for an X it does not know with the whole help on stderr.
  if (viaHelp && requested !== undefined && !commands.some((entry) => entry.name === requested)) {
    process.stderr.write(usageErrorLine(`error: unknown command '${requested}'`));
    return 2;
  }
  for (const entry of commands) {
    if (entry.name !== requested) {
      program.command(entry.name).summary(entry.summary);
      continue;
    }
    (await entry.load()).register(program, (code) => {
      exitCode = code;
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are "errors" to commander; they already printed what was asked.
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    const known = error instanceof NightbenchError ? error : pathError(error);
    if (known) {
      process.stderr.write(`nightbench: ${known.message}\n`);
      if (program.opts().debug) process.stderr.write(`${(known.cause as Error | undefined)?.stack ?? known.stack}\n`);
      return known.exitCode;
    }
    process.stderr.write(`nightbench: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return 70;
  }
}
