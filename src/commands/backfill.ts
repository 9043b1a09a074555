import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { backfillPorts } from '../backfill/ports.js';
import { nightsOfRange, parseNightsFile, planBackfill } from '../backfill/plan.js';
import { describeSeconds, runBackfill, type BackfillOutcome } from '../backfill/run-backfill.js';
import { NightbenchError } from '../errors.js';
import { shortSha } from '../format/index.js';
import { parseShardSpec } from '../shard/plan.js';
import { loadSuite } from '../suite/suite.js';
import { parseIntegerOption, printResult, type CliCommand } from './command.js';
import { commandContext, openContextHistory } from './context.js';
import { checkNight } from './input.js';
import { abortOnSignals, addRunOptions, runOverrides, type RunFlags } from './run-options.js';

interface BackfillFlags extends RunFlags {
  from?: string;
  to?: string;
  every: number;
  nights?: string;
  redo?: boolean;
  dryRun?: boolean;
  shard?: string;
  issues?: boolean;
  judge: boolean;
  record: boolean;
}

/**
 * `nightbench backfill`: a range of past nights recorded as nightly runs, resumable, then judged
 * once as detection would have judged them live.
 */
export const backfillCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addRunOptions(program.command('backfill').description('record past nights (oldest first) as nightly runs, each repository at that night\'s cut-off; skips nights already recorded; then judges the range night by night'), { night: false })
      .option('--from <YYYY-MM-DD>', 'first night of the range')
      .option('--to <YYYY-MM-DD>', 'last night of the range (default: --from)')
      .option('--every <n>', 'every n-th night of the range', parseIntegerOption('--every'), 1)
      .option('--nights <file>', 'the nights to record, one YYYY-MM-DD a line, instead of --from/--to')
      .option('--redo', 'record nights again even when the history has them')
      .option('--dry-run', 'print the nights and the commits each would test; record nothing')
      .option('--shard <i/N>', 'record only every N-th night starting with the i-th (a workflow matrix job); judging waits for the merged history')
      .option('--no-judge', 'record only: skip detection over the range')
      .option('--no-record', 'judge only the nights the history holds (after merging shards); record none')
      .option('--issues', 'after judging, open issues for what is still open at the last night (default: none)')
      .addHelpText('after', '\nExit codes: 0 every night recorded (or skipped), 1 a night\'s runs failed or a night is missing (--no-record), 2 bad input, 3 target/git trouble,\n4 history trouble, 5 cluster trouble, 6 GitHub trouble (--issues), 130 interrupted (the next start goes on).')
      .action(async (flags: BackfillFlags) => {
        if (flags.night !== undefined) throw new NightbenchError('usage', 'backfill takes --from/--to or --nights, not --night');
        const context = commandContext(flags, runOverrides(flags));
        const selection = nightSelection(flags, context.resolve);
        const shard = flags.shard ? parseShardSpec(flags.shard) : undefined;
        const store = openContextHistory(context);
        const signals = abortOnSignals();
        try {
          const { config } = context.loaded;
          const suites = config.suites.map((name) => loadSuite(name, { baseDir: context.loaded.baseDir, python: config.python }).file.name);
          const recorded = store.runs.nightsRecorded(suites, selection.nights[0]!, selection.nights.at(-1)!);
          const plan = planBackfill(selection.nights, { recorded: new Set(recorded), redo: flags.redo ?? false, shard });
          let publishError: NightbenchError | undefined;
          const ports = backfillPorts(context.loaded, store, context.log, {
            shard: flags.shard, signal: signals.signal, onPublishFailure: (error) => (publishError = error as NightbenchError),
          });
          if (flags.dryRun) {
            // One night after the other: the first clones the repositories, the others only read them.
            const nights: { night: string; commits: Record<string, string> }[] = [];
            for (const night of plan.toRecord) nights.push({ night, commits: Object.fromEntries((await ports.commitsOf(night)).map((c) => [c.repo, c.sha])) });
            printResult(flags.json, { nights, skipped: plan.skipped }, [...nights.map((n) => `${n.night}  ${Object.entries(n.commits).map(([repo, sha]) => `${repo} ${shortSha(sha)}`).join('  ') || '(installed target)'}`), `${plan.skipped.length} already recorded, skipped`].join('\n'));
            return;
          }
          // A shard records only: the merged history is judged once, by an unsharded backfill of the same nights.
          const outcome = await runBackfill(ports, plan, { record: flags.record, judge: flags.judge && !shard, issues: flags.issues ?? false });
          printResult(flags.json, outcome, describeOutcome(outcome));
          setExitCode(outcome.interrupted ? 130 : outcome.failed.length > 0 || outcome.remaining.length > 0 ? 1 : (publishError?.exitCode ?? 0));
        } finally {
          signals.dispose();
          store.close();
        }
      });
  },
};

function nightSelection(flags: BackfillFlags, resolve: (file: string) => string): { nights: string[] } {
  if (flags.nights !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) throw new NightbenchError('usage', '--nights FILE replaces --from/--to: give one or the other');
    const file = resolve(flags.nights);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new NightbenchError('usage', `--nights ${flags.nights}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const nights = parseNightsFile(text, flags.nights);
    // A night after tomorrow would be recorded, then judged by every later command as the latest one.
    checkNight(nights.at(-1)!, `${flags.nights}: night`);
    return { nights };
  }
  if (flags.from === undefined) throw new NightbenchError('usage', 'backfill needs --from YYYY-MM-DD (and --to), or --nights FILE');
  // The whole range is checked here, before the history is opened; its end as --night is (at most tomorrow).
  const nights = nightsOfRange(flags.from, flags.to ?? flags.from, flags.every);
  checkNight(flags.to ?? flags.from, flags.to === undefined ? '--from' : '--to');
  return { nights };
}

function describeOutcome(outcome: BackfillOutcome): string {
  const lines = outcome.recorded.map((r) => `${r.night}  ${r.runs.map((run) => `${run.suite} ${run.status}`).join(', ')}  ${describeSeconds(r.seconds)}`);
  lines.push(`${outcome.recorded.length} recorded, ${outcome.skipped.length} skipped, ${outcome.failed.length} failed, ${outcome.remaining.length} left`);
  if (outcome.judged.length > 0) lines.push(`judged ${outcome.judged.length} nights: ${outcome.episodesFound.length} episodes found`);
  return lines.join('\n');
}
