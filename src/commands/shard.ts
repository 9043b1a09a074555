import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { writeJobSummary } from '../job-summary/job-summary.js';
import { planOutputs, renderShardPlan } from '../job-summary/plan-summary.js';
import { openHistory } from '../history/open.js';
import { medianWallTimes } from '../shard/durations.js';
import { writeShardPlan } from '../shard/plan-file.js';
import { estimateWorkloads, planShards, shardMatrix } from '../shard/plan.js';
import { selectAcrossSuites } from '../runner/execute.js';
import { loadSuite } from '../suite/suite.js';
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
      .option('--default-seconds <s>', 'seconds of one repeat of a workload the history has not timed', parseNumberOption('--default-seconds'), 60)
      .option('--overhead-seconds <s>', 'seconds per workload besides its repeats (cluster start, restarts)', parseNumberOption('--overhead-seconds'), 10)
      .option('--nights <n>', 'medians over this many most recent nights', parseIntegerOption('--nights'), 7)
      .option('--json', 'print the plan and the matrix as JSON')
      .action(async (flags: PlanFlags) => {
        const context = commandContext(flags, { repeats: flags.repeats, workloads: flags.workload, suites: flags.suite });
        const { config } = context.loaded;
        const suites = config.suites.map((name) => loadSuite(name, { baseDir: context.loaded.baseDir, python: config.python }));
        // The same selection as `nightly`: names are checked across all suites at once.
        const selected = await selectAcrossSuites(suites, config.environment.variables, config.workloads);
        const wanted = selected.flatMap(({ suite, workloads }) => workloads.map((w) => ({ suite: suite.file.name, name: w.name })));

        // A first night has no history: every workload gets the default duration.
        const medians = existsSync(context.historyPath) ? readMedians(context.historyPath, flags.nights) : new Map<string, number>();
        const plan = planShards(estimateWorkloads(wanted, medians, { repeats: config.repeats, defaultSeconds: flags.defaultSeconds, overheadSeconds: flags.overheadSeconds }), flags.shards);
        if (flags.out) writeShardPlan(context.resolve(flags.out), plan);
        for (const s of plan.shards) {
          context.log.info(`shard ${s.index}/${plan.count}: ~${Math.round(s.seconds)} s: ${s.workloads.map((w) => `${w.name}${w.known ? '' : ' (untimed)'}`).join(', ')}`);
        }
        // In a workflow: the plan as the job summary, and the matrix as a step output.
        await writeJobSummary({ markdown: renderShardPlan(plan), annotations: [], outputs: planOutputs(plan) });
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ plan, matrix: shardMatrix(plan) })}\n`);
        } else {
          for (const s of plan.shards) process.stdout.write(`${s.index}/${plan.count}\t${Math.round(s.seconds)}s\t${s.workloads.map((w) => w.name).join(',')}\n`);
        }
        setExitCode(0);
      });
  },
};

function readMedians(file: string, nights: number): Map<string, number> {
  const store = openHistory(file, { readonly: true });
  try {
    return medianWallTimes(store.runs.resultRows({ kind: 'nightly' }), nights);
  } finally {
    store.close();
  }
}
