import type { Command } from 'commander';
import { runSuitesOnce } from '../runner/run-once.js';
import type { CliCommand } from './command.js';
import { commandContext, openContextHistory } from './context.js';
import { abortOnSignals, addRunOptions, exitCodeOf, printReports, runOverrides, type RunFlags } from './run-options.js';

/** `nightbench run`: the suites once, recorded as kind "run" (not part of the nightly series). */
export const runCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addRunOptions(program.command('run').description('run the configured suites once on a cluster and record them (kind "run", outside the nightly series)')).action(
      async (flags: RunFlags) => {
        const context = commandContext(flags, runOverrides(flags));
        // As the nightly's: an interrupt while the target is made ready stops the run before its first repeat.
        const signals = abortOnSignals();
        try {
          const reports = await runSuitesOnce(context.loaded, () => openContextHistory(context), context.log, { night: flags.night, signal: signals.signal });
          printReports(reports, flags.json);
          setExitCode(exitCodeOf(reports, signals.received() !== undefined));
        } finally {
          signals.dispose();
        }
      },
    );
  },
};
