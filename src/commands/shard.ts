import type { Command } from 'commander';
import { planNightShards } from '../nightly/pipeline.js';
import { shardMatrix } from '../shard/plan.js';
import { addCommonOptions, collect, parseIntegerOption, parseNumberOption, type CliCommand, type CommonOptions } from './command.js';
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

/** `nightbench shard plan`: splits the night's workloads over N shards by their recorded durations. */
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
  },
};
