import type { Command } from 'commander';
import { planNightShards, recoverShards } from '../nightly/pipeline.js';
import { shardMatrix } from '../shard/plan.js';
import { addCommonOptions, collect, parseIntegerOption, parseNumberOption, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';

interface PlanFlags extends CommonOptions {
  shards: number;
  out?: string;
  repeats?: number;
  workload?: string[];
  suite?: string[];
  defaultSeconds: number;
  overheadSeconds: number;
  nights: number;
}

interface RecoverFlags extends CommonOptions {
  out: string;
  days: number;
  repository?: string;
  runId?: number;
  json?: boolean;
}

/** `nightbench shard plan`: splits the night's workloads over N shards by their recorded durations; `shard recover`: brings back the shards of runs whose save failed. */
export const shardCommand: CliCommand = {
  register(program: Command, setExitCode) {
    const shard = program.command('shard').description('split a night over several machines');

    addCommonOptions(shard.command('plan').description('balance the workloads over N shards by their median wall time in the history (longest first); --json prints the workflow matrix, a workflow step also gets it as the output "matrix"'))
      .requiredOption('--shards <n>', 'number of shards (machines)', parseIntegerOption('--shards'))
      .option('--out <file>', 'also write the plan to this file, for `nightbench nightly --shard i/N --shard-plan FILE`')
      .option('--repeats <n>', 'repeats per workload (default: the config\'s)', parseIntegerOption('--repeats'))
      .option('--workload <name>', 'plan only these workloads (repeatable, or comma-separated)', collect)
      .option('--suite <name>', 'plan only these suites (repeatable)', collect)
      .option('--default-seconds <s>', 'seconds of one repeat of a workload the history has not timed', parseNumberOption('--default-seconds', 0), 60)
      .option('--overhead-seconds <s>', 'seconds per workload besides its repeats (cluster start, restarts)', parseNumberOption('--overhead-seconds', 0), 10)
      .option('--nights <n>', 'medians over this many most recent nights', parseIntegerOption('--nights', 1), 7)
      .option('--json', 'print the plan and the matrix as JSON')
      .action(async (flags: PlanFlags) => {
        const context = commandContext(flags, { repeats: flags.repeats, workloads: flags.workload, suites: flags.suite });
        const plan = await planNightShards(context, { shards: flags.shards, out: flags.out && context.resolve(flags.out), defaultSeconds: flags.defaultSeconds, overheadSeconds: flags.overheadSeconds, nights: flags.nights });
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ plan, matrix: shardMatrix(plan) })}\n`);
        } else {
          for (const s of plan.shards) process.stdout.write(`${s.index}/${plan.count}\t${Math.round(s.seconds)}s\t${s.workloads.map((w) => w.name).join(',')}\n`);
        }
        setExitCode(0);
      });

    addCommonOptions(shard.command('recover').description("download the shard artifacts of this workflow's earlier runs that did not succeed (a save that failed leaves its night only there), for `db merge`; merging a shard the history already holds adds nothing"))
      .requiredOption('--out <dir>', 'where to put them: DIR/run-<id>-shard-<i>/shard.sqlite')
      .option('--days <n>', 'look this many days back (GitHub keeps the artifacts 14 days)', parseIntegerOption('--days', 1), 14)
      .option('--repository <owner/name>', 'the repository whose workflow runs this (default: $GITHUB_REPOSITORY; not github.repository, which may only get the issues)')
      .option('--run-id <id>', 'this run, whose workflow is searched and which is left out (default: $GITHUB_RUN_ID)', parseIntegerOption('--run-id', 1))
      .option('--json', 'print what was downloaded as JSON')
      .addHelpText('after', '\nThe token is read from the variable github.tokenEnv names (default GITHUB_TOKEN); it needs actions: read.\nExit codes: 0 when the search ended (whatever it found), 2 on bad input, 6 when GitHub kept failing.')
      .action(async (flags: RecoverFlags) => {
        const { text, ...outcome } = await recoverShards(commandContext(flags), { out: flags.out, days: flags.days, repository: flags.repository, runId: flags.runId });
        printResult(flags.json, outcome, text);
        setExitCode(0);
      });
  },
};
