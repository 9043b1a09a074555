import type { Command } from 'commander';
import { runNight } from '../nightly/pipeline.js';
import type { CliCommand } from './command.js';
import { commandContext } from './context.js';
import { checkRevision } from './input.js';
import { abortOnSignals, addRunOptions, exitCodeOf, printReports, runOverrides, type RunFlags } from './run-options.js';

interface NightlyFlags extends RunFlags {
  commit?: string;
  detect: boolean;
  shard?: string;
  shardPlan?: string;
}

/**
 * `nightbench nightly`: the main job. The target at its tip, every suite on a cluster, recorded
 * in the history; then detection and issues, unless --no-detect.
 */
export const nightlyCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addRunOptions(program.command('nightly').description('run the nightly: target at its git tip, every suite on the cluster, results into the history, then detection and issues'))
      .option('--commit <sha>', 'test this commit of the target\'s primary repository instead of its branch tip; the others follow the night\'s cut-off (backfills)')
      .option('--no-detect', 'record only: skip regression detection and issues')
      .option('--shard <i/N>', 'run only shard i of N of the plan given by --shard-plan (a workflow matrix job)')
      .option('--shard-plan <file>', 'the plan `nightbench shard plan --out` wrote')
      .action(async (flags: NightlyFlags) => {
        const context = commandContext(flags, runOverrides(flags));
        const commit = flags.commit === undefined ? undefined : checkRevision(flags.commit, '--commit');
        const shard = flags.shard === undefined ? undefined : { spec: flags.shard, planFile: flags.shardPlan && context.resolve(flags.shardPlan) };
        const signals = abortOnSignals();
        try {
          const outcome = await runNight(context, { night: flags.night, commit, shard, detect: flags.detect, signal: signals.signal });
          printReports(outcome.reports, flags.json);
          setExitCode(exitCodeOf(outcome.reports, outcome.interrupted) || (outcome.publishFailure?.exitCode ?? 0));
        } finally {
          signals.dispose();
        }
      });
  },
};
