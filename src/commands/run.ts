import type { Command } from 'commander';
import { executeRuns, prepareExecution } from '../runner/execute.js';
import type { CliCommand } from './command.js';
import { commandContext, openContextHistory } from './context.js';
import { abortOnSignals, addRunOptions, exitCodeOf, printReports, runOverrides, type RunFlags } from './run-options.js';

/** `nightbench run`: the suites once, recorded as kind "run" (not part of the nightly series). */
export const runCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addRunOptions(program.command('run').description('run the configured suites once on a cluster and record them (kind "run", outside the nightly series)')).action(
      async (flags: RunFlags) => {
        const context = commandContext(flags, runOverrides(flags));
        // Every input error (an unknown workload) surfaces before the history is created.
        const prepared = await prepareExecution(context.loaded, context.log, { night: flags.night ?? 'now' });
        const store = openContextHistory(context);
        const signals = abortOnSignals();
        try {
          const reports = await executeRuns(context.loaded, store, context.log, { kind: 'run', night: flags.night, signal: signals.signal, prepared });
          printReports(reports, flags.json);
          setExitCode(exitCodeOf(reports, signals.received() !== undefined));
        } finally {
          signals.dispose();
          store.close();
        }
      },
    );
  },
};
