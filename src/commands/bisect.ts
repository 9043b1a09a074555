import type { Command } from 'commander';
import { episodeRequest, largestChange } from '../bisect/confirm.js';
import { publishBisect } from '../bisect/publish.js';
import { runBisect, type BisectRequest } from '../bisect/run.js';
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import { brokenOfIssue } from '../issues/publish-broken.js';
import { prepareTarget } from '../target/target.js';
import { addCommonOptions, collect, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory, type CommandContext } from './context.js';
import { checkRevision } from './input.js';
import { abortOnSignals } from './run-options.js';
import path from 'node:path';

interface BisectFlags extends CommonOptions {
  episode?: number;
  issue?: number;
  good?: string[];
  bad?: string[];
  workload?: string;
  metric?: string;
  suite?: string;
  mode: string;
  failing?: boolean;
  seed?: number;
}

/** `nightbench bisect`: from a suspect range to the commit that made the difference. */
export const bisectCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('bisect')
        .description("find the commit of a regression (or failure) across the target's repositories, deciding each step with the series' noise, and comment the result on its issue")
        .option('--episode <id>', 'the regression episode to bisect (an id from the regressions table)', parseIntegerOption('--episode'))
        .option('--issue <number>', "the issue whose episodes to bisect (the largest change of them), or whose broken workload to bisect pass/fail; the result is commented there", parseIntegerOption('--issue'))
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
    ).action(async (flags: BisectFlags) => {
      if (flags.mode !== 'bisect' && flags.mode !== 'rerun') throw new NightbenchError('usage', `--mode must be bisect or rerun, got "${flags.mode}"`);
      // SHA or REPO=SHA: neither the whole nor the SHA after "=" may read as an option.
      for (const [option, given] of [['--good', flags.good], ['--bad', flags.bad]] as const) for (const value of given ?? []) checkRevision(checkRevision(value, option).slice(value.indexOf('=') + 1), option);
      const context = commandContext(flags);
      const store = openContextHistory(context);
      const signals = abortOnSignals();
      try {
        const { request, unit } = await resolveRequest(context, store, flags);
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

/** The series and range to bisect, from an episode, an issue (a regression's or a broken workload's), or the flags. */
async function resolveRequest(context: CommandContext, store: HistoryStore, flags: BisectFlags): Promise<{ request: BisectRequest; unit: string | null }> {
  const mode = flags.mode as BisectRequest['mode'];
  if (flags.episode !== undefined || flags.issue !== undefined) {
    const episodes = store.episodes().filter((e) => (flags.episode !== undefined ? e.id === flags.episode : e.issueNumber === flags.issue));
    if (episodes.length > 0) {
      const episode = largestChange(episodes);
      return { request: episodeRequest(episode, mode, { issueNumber: flags.issue, seed: flags.seed }), unit: episode.unit };
    }
    if (flags.episode !== undefined) throw new NightbenchError('usage', `no regression episode ${flags.episode} in the history`);
    const broken = await brokenOfIssue({ store, loaded: context.loaded, env: process.env, log: context.log }, flags.issue!);
    if (!broken) throw new NightbenchError('usage', `no regression episode or broken workload is reported in issue #${flags.issue}`);
    if (!broken.lastPassing) throw new NightbenchError('usage', `issue #${flags.issue} reports ${broken.workload} failing from its first night: there is no passing night to bisect from`);
    // Pass/fail, as --failing, over the failure's last passing and first failing nights.
    return { request: { ...failingRequest(mode, flags, broken.workload), suite: broken.suite, good: broken.lastPassing.commits, bad: broken.firstFailing.commits, issueNumber: flags.issue }, unit: null };
  }
  if (!flags.good?.length || !flags.bad?.length || !flags.workload) throw new NightbenchError('usage', 'bisect needs --episode, --issue, or --good, --bad and --workload');
  const range = { suite: flags.suite, good: await completeCommits(context, flags.good), bad: await completeCommits(context, flags.bad) };
  if (flags.failing) return { request: { ...failingRequest(mode, flags, flags.workload), ...range }, unit: null };
  const metric = flags.metric ?? 'wall_time';
  return { request: { mode, judged: 'metric', workload: flags.workload, metric, priorNoise: 0, seed: flags.seed, ...range }, unit: metric === 'wall_time' ? 's' : null };
}

/** A pass/fail bisect of `workload` (its metric only names the runs: a failure has no value). */
function failingRequest(mode: BisectRequest['mode'], flags: BisectFlags, workload: string): Omit<BisectRequest, 'good' | 'bad'> {
  return { mode, judged: 'pass-fail', workload, metric: flags.metric ?? 'wall_time', priorNoise: 0, seed: flags.seed };
}

/** `SHA` (the primary repository, the others paired by date as --commit does) plus `REPO=SHA` overrides. */
async function completeCommits(context: CommandContext, given: string[]): Promise<Record<string, string>> {
  const explicit = Object.fromEntries(given.filter((g) => g.includes('=')).map((g) => g.split('=', 2) as [string, string]));
  const primary = given.find((g) => !g.includes('='));
  const { config } = context.loaded;
  // A git target never runs the interpreter here; only an installed one does (and it cannot bisect).
  const python = config.python ?? '/usr/bin/python3';
  const target = await prepareTarget(config, { workdir: path.resolve(context.loaded.baseDir, config.workdir), baseDir: context.loaded.baseDir, python, commit: primary, commits: explicit, log: { ...context.log, info: context.log.debug } });
  return Object.fromEntries(target.commits.map((c) => [c.repo, c.sha]));
}
