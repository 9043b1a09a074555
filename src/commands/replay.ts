import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { NightbenchError } from '../errors.js';
import { formatChange, formatPercent, formatSeconds } from '../format/index.js';
import { copyHistoryFile, requireHistoryFile } from '../history/files.js';
import { openHistory } from '../history/open.js';
import { replayPorts } from '../replay/ports.js';
import { runReplay, type ReplayOutcome } from '../replay/run-replay.js';
import { addCommonOptions, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory } from './context.js';
import { checkNight } from './input.js';

interface ReplayFlags extends CommonOptions {
  from: string;
  to: string;
  dryRun?: boolean;
  issuesDir?: string;
}

/**
 * `nightbench replay`: what nightbench would have filed over a history: its nights judged again
 * in order as the nightlies would have, the issues written as files, GitHub never asked.
 */
export const replayCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('replay')
        .description('judge the history\'s nights from --from to --to again, oldest first, as the nightlies would have; write the issues they would have opened, updated and closed as Markdown files (never GitHub); record the episodes found, marked as replayed')
        .requiredOption('--from <YYYY-MM-DD>', 'first night to judge', (value: string) => checkNight(value, '--from'))
        .requiredOption('--to <YYYY-MM-DD>', 'last night to judge', (value: string) => checkNight(value, '--to'))
        .option('--dry-run', 'judge a copy of the history: record nothing in it (the issue files are still written)')
        .option('--issues-dir <dir>', 'where the issue files go; must be empty or absent (default: <reports.dir>/replay/<from>_<to>)')
        .option('--json', 'print every issue (nights, series, ranges, nights open, transient) and the totals as JSON'),
    )
      .addHelpText('after', '\nAn issue is transient when the medians of the 20 results before its first bad one and of the 20 from it on differ by less than 5%.\nExit codes: 0 replayed, 2 bad input (dates, a non-empty --issues-dir), 4 the history cannot be read or written.')
      .action(async (flags: ReplayFlags) => {
        if (flags.from > flags.to) throw new NightbenchError('usage', `--from ${flags.from} is after --to ${flags.to}`);
        const context = commandContext(flags);
        // Judged in place or copied for a dry run: either way a history that is not there is an error, not an empty replay.
        requireHistoryFile(context.historyPath, 'replay');
        const issuesDir = flags.issuesDir ? context.resolve(flags.issuesDir) : path.resolve(context.loaded.baseDir, context.loaded.config.reports.dir, 'replay', `${flags.from}_${flags.to}`);
        // The file tracker reads what it finds there as filed issues: an earlier replay's would be commented on, not opened.
        if (existsSync(issuesDir) && readdirSync(issuesDir).length > 0) {
          throw new NightbenchError('usage', `${issuesDir} already holds files (an earlier replay?): remove it or give another --issues-dir`);
        }
        const scratch = flags.dryRun ? mkdtempSync(path.join(tmpdir(), 'nightbench-replay-')) : undefined;
        // Removed also when the history cannot be copied or opened.
        try {
          if (scratch) copyHistoryFile(context.historyPath, path.join(scratch, 'history.sqlite'));
          const store = scratch ? openHistory(path.join(scratch, 'history.sqlite')) : openContextHistory(context);
          try {
            const outcome = await runReplay(replayPorts(context.loaded, store, context.log, issuesDir), { from: flags.from, to: flags.to });
            printResult(flags.json, { ...outcome, issuesDir, dryRun: flags.dryRun ?? false }, describeReplay(outcome, issuesDir));
            setExitCode(0);
          } finally {
            store.close();
          }
        } finally {
          if (scratch) rmSync(scratch, { recursive: true, force: true });
        }
      });
  },
};

function describeReplay(outcome: ReplayOutcome, issuesDir: string): string {
  const lines = outcome.issues.map((issue) => {
    const largest = [...issue.series].sort((a, b) => Math.abs(b.openedChange) - Math.abs(a.openedChange))[0];
    const closed = issue.closedNight ? `closed ${issue.closedNight}` : 'still open';
    const transient = issue.transient === undefined ? '' : issue.transient ? ', transient' : '';
    const what = largest ? `${largest.workload} ${largest.metric} ${formatChange(largest.openedChange)} when opened` : '';
    return `${issue.openedNight}  ${closed} (${issue.nightsOpen} nights${transient})  ${issue.suite} ${what}${issue.series.length > 1 ? ` and ${issue.series.length - 1} more series` : ''}  ${issue.fingerprint}.md`;
  });
  const { totals } = outcome;
  const share = totals.transient.share === undefined ? 'n/a' : `${formatPercent(totals.transient.share)} (${totals.transient.transient} of ${totals.transient.judged})`;
  lines.push(
    `${outcome.nights} nights, ${outcome.series} series, ${outcome.values} values replayed in ${formatSeconds(outcome.seconds)}: ${totals.issues} issues (${totals.stillOpen} still open), ${outcome.episodesFound} episodes`,
    `issues per year: ${Object.entries(totals.perYear).map(([year, n]) => `${year} ${n}`).join(', ') || 'none'}; transient: ${share}`,
    `series that never settle (${totals.unsettled.length}): ${totals.unsettled.map((u) => `${u.series} x${u.episodes}`).join('; ') || 'none'}`,
    `issue files: ${issuesDir}`,
  );
  return lines.join('\n');
}
