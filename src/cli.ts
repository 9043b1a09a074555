import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';
import { NightbenchError } from './errors.js';
import { harnessVersion } from './version.js';

/**
 * `nightbench <command>`: each command is a module of src/commands that registers its own
 * options and returns an exit code. Errors a user can act on print one line; bugs keep their stack.
 */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('nightbench')
    .description('Catches performance regressions in distributed software: nightly suites on real clusters, history, detection, A/B tests and pages.')
    .version(harnessVersion)
    .option('--debug', 'print stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  let exitCode = 0;
  for (const command of commands) {
    command.register(program, (code) => {
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
    if (error instanceof NightbenchError) {
      process.stderr.write(`nightbench: ${error.message}\n`);
      if (program.opts().debug) process.stderr.write(`${error.stack}\n`);
      return error.exitCode;
    }
    process.stderr.write(`nightbench: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return 70;
  }
}
