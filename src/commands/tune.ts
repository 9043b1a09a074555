import { InvalidArgumentError, Option, type Command } from 'commander';
import { nightsBefore } from '../night.js';
import { judgedNight } from '../detect/index.js';
import { medianWallTimes } from '../shard/durations.js';
import { planRepeats } from '../tune/plan.js';
import { renderTunePlan } from '../tune/render.js';
import { addCommonOptions, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openRecordedHistory } from './context.js';
import { nightOption } from './input.js';

interface TuneFlags extends CommonOptions {
  target: number;
  nights: string;
  night?: string;
  suite?: string;
}

/** Nights of wall times that give a workload's duration (as sharding reads them). */
const durationNights = 7;

/**
 * `nightbench tune`: the repeats per workload that catch a target change within 1 or 3 nights at
 * the lowest cluster time, from each series' measured noise and the recorded durations.
 */
export const tuneCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('tune')
        .description('print, for every workload, the repeats a night at which each of its series catches a target change within 1 or 3 nights, and the cluster time that costs')
        // The default is held as the fraction it is parsed to, and shown as the percent it is typed as.
        .addOption(new Option('--target <percent>', 'the change to catch, in percent (e.g. 10 or 10%)').argParser(parsePercent).default(0.1, '10%'))
        .addOption(new Option('--nights <n>', 'within this many nights: 1 (on its first night) or 3').choices(['1', '3']).default('3'))
        .option('--night <date>', 'the night whose noise is used, YYYY-MM-DD (default: the latest nightly night in the history)', nightOption)
        .option('--suite <name>', 'only the workloads of this suite')
        .option('--json', 'print the plan as JSON')
        .addHelpText(
          'after',
          '\nThe noise of each series is the one detection measured on the night; the duration of one repeat is the median wall time of the\n' +
            `last ${durationNights} nights. Exit codes: 0 with a plan (also when some series cannot reach the target), 2 on bad input or config,\n4 when the history database is missing or cannot be read.`,
        ),
    ).action((flags: TuneFlags) => {
      const context = commandContext(flags);
      const { config } = context.loaded;
      const store = openRecordedHistory(context, 'tune');
      try {
        const report = judgedNight(store, config.detection, { now: flags.night, suite: flags.suite });
        if (report.night === undefined) {
          printResult(flags.json, { night: null, workloads: [] }, 'no nightly runs in the history: nothing to tune');
          setExitCode(0);
          return;
        }
        const rows = store.runs.resultRows({ kind: 'nightly', suite: flags.suite, metric: 'wall_time', sinceNight: nightsBefore(report.night, durationNights * 2) });
        const durations = medianWallTimes(rows.filter((row) => row.night <= report.night!), durationNights);
        const plan = planRepeats(report.night, report.verdicts, durations, config.detection, {
          target: flags.target, nights: Number(flags.nights), currentRepeats: config.repeats, warmupRepeats: config.warmupRepeats,
        });
        context.log.info(`tuned ${plan.workloads.length} workloads from ${report.verdicts.length} series of night ${report.night}`);
        printResult(flags.json, plan, renderTunePlan(plan));
        setExitCode(0);
      } finally {
        store.close();
      }
    });
  },
};

function parsePercent(value: string): number {
  const percent = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(percent) || percent <= 0 || percent >= 1000) throw new InvalidArgumentError(`--target must be a percentage above 0, e.g. 10 or 10%, got "${value}"`);
  return percent / 100;
}
