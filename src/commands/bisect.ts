import type { Command } from 'commander';
import { publishBisect } from '../bisect/publish.js';
import { resolveBisectRequest, type BisectFlags } from '../bisect/request.js';
import { bisectTarget, runBisect } from '../bisect/run.js';
import { NightbenchError } from '../errors.js';
import { addCommonOptions, collect, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory } from './context.js';
import { checkRevision } from './input.js';
import { abortOnSignals } from './run-options.js';

interface BisectCommandFlags extends CommonOptions, Omit<BisectFlags, 'mode'> {
  mode: string;
}

/** `nightbench bisect`: from a suspect range to the commit that made the difference. */
export const bisectCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('bisect')
        .description("find the commit of a regression (or failure) across the target's repositories, deciding each step with the series' noise, and comment the result on its issue")
        .option('--episode <id>', 'the regression episode to bisect (an id from the regressions table)', parseIntegerOption('--episode', 1))
        .option('--issue <number>', "the issue whose episodes to bisect (the largest change of them), or whose broken workload to bisect pass/fail; the result is commented there", parseIntegerOption('--issue', 1))
        .option('--good <sha>', 'last good commit of the primary repository, or REPO=SHA (repeatable); others paired by date', collect)
        .option('--bad <sha>', 'first bad commit, as --good', collect)
        .option('--workload <name>', 'with --good/--bad: the workload to run')
        .option('--metric <name>', 'with --good/--bad: the metric to judge (default wall_time)')
        .option('--suite <name>', 'with --good/--bad: the suite of the workload (default: the one that has it)')
        .option('--failing', 'with --good/--bad: bisect a failure (pass/fail) instead of a slowdown')
        .option('--mode <mode>', 'bisect: search the range; rerun: last good against first bad as one interleaved A/B', 'bisect')
        .option('--seed <n>', 'seed of the confirmation bootstrap', parseIntegerOption('--seed'))
        .option('--json', 'print the result as JSON on stdout')
        .addHelpText(
          'after',
          `\nEach step runs the candidate interleaved with fresh repeats of the last good and first bad states, more repeats while\nundecided (a sequential test between the two levels, capped), never fewer than the series' noise requires. The answer is a\nculprit (confirmed against its parent as an interleaved A/B), a spread over several commits, "not reproduced" or "ambiguous".\nBisect runs are recorded as kind "bisect", outside every nightly series.\nExit codes: 0 an answer (culprit, spread or not reproduced), 1 ambiguous, 2 bad input, 3 target or git trouble,\n4 history trouble, 5 cluster trouble, 6 GitHub trouble (the comment is then in reports/issues/), 130 interrupted.`,
        ),
    ).action(async (flags: BisectCommandFlags) => {
      if (flags.mode !== 'bisect' && flags.mode !== 'rerun') throw new NightbenchError('usage', `--mode must be bisect or rerun, got "${flags.mode}"`);
      // SHA or REPO=SHA: neither the whole nor the SHA after "=" may read as an option.
      for (const [option, given] of [['--good', flags.good], ['--bad', flags.bad]] as const) for (const value of given ?? []) checkRevision(checkRevision(value, option).slice(value.indexOf('=') + 1), option);
      const context = commandContext(flags);
      // Before the history, GitHub or git is asked anything: --good/--bad would otherwise meet the target's "--commit needs a git target".
      bisectTarget(context.loaded);
      const store = openContextHistory(context);
      const signals = abortOnSignals();
      try {
        const { request, unit } = await resolveBisectRequest({ loaded: context.loaded, log: context.log, store }, { ...flags, mode: flags.mode as BisectFlags['mode'] });
        const report = await runBisect(context.loaded, store, context.log, request, { signal: signals.signal });
        const published = await publishBisect(report, { loaded: context.loaded, env: process.env, unit, log: context.log });
        const { outcome } = report.result;
        const named = outcome.kind === 'culprit' ? report.states[outcome.state]!.change : undefined;
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ id: report.id, outcome, culprit: named, result: report.result, clusterMinutes: report.clusterSeconds / 60, comment: published.where }, null, 2)}\n`);
        } else {
          process.stdout.write(`${published.body}\n`);
        }
        setExitCode(signals.received() ? 130 : outcome.kind === 'ambiguous' ? 1 : 0);
      } finally {
        signals.dispose();
        store.close();
      }
    });
  },
};
