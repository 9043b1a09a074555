import type { Command } from 'commander';
import { detectRegressions } from '../detect/run.js';
import { NightbenchError } from '../errors.js';
import { describeAction } from '../github/plan.js';
import { publishIssues, type PublishResult } from '../github/publish.js';
import { publishBroken } from '../github/publish-broken.js';
import { addCommonOptions, type CliCommand, type CommonOptions } from './command.js';
import type { HistoryStore } from '../history/store.js';
import { commandContext, openContextHistory, type CommandContext } from './context.js';

interface IssuesOptions extends CommonOptions {
  night?: string;
  suite?: string;
  dryRun?: boolean;
}

/** The summary: one line per planned action, and where the failed ones went. */
export function describePublishResult(result: PublishResult, dryRun: boolean): string {
  const header = `${dryRun ? 'would publish' : 'published'} to ${result.tracker} for night ${result.night ?? '(none)'}: ${result.actions.length} issue group${result.actions.length === 1 ? '' : 's'}`;
  const lines = (result.outcomes ?? result.actions.map((action) => ({ action, issue: undefined, fallback: undefined }))).map((outcome) => {
    const where = outcome.issue && outcome.action.kind === 'open' ? ` -> ${outcome.issue.ref}${outcome.issue.url ? ` ${outcome.issue.url}` : ''}` : '';
    return `  ${describeAction(outcome.action)}${where}${outcome.fallback ? ` (GitHub failed; written to ${outcome.fallback})` : ''}`;
  });
  return [header, ...lines].join('\n');
}

/**
 * Detection of a night (idempotent: judging it again changes nothing stored), then its issues.
 * What `nightbench issues` does, and `nightly` after recording.
 */
export async function detectAndPublish(context: CommandContext, store: HistoryStore, options: { night?: string; suite?: string; dryRun?: boolean }): Promise<PublishResult> {
  const report = detectRegressions(store, context.loaded.config.detection, { now: options.night, suite: options.suite, dryRun: options.dryRun });
  const result = await publishIssues({ report, store, loaded: context.loaded, env: process.env, log: context.log, dryRun: options.dryRun });
  if (result.night !== undefined && !options.dryRun) {
    // Broken workloads are issues too; their trouble never holds back the regressions' issues.
    await publishBroken({ store, loaded: context.loaded, night: result.night, env: process.env, log: context.log }).catch((error: unknown) => context.log.warn(`broken-workload issues: ${error instanceof Error ? error.message : String(error)}`));
  }
  return result;
}

/** The one error a command reports when GitHub kept failing: the regressions and the text are kept. */
export function publishFailure(result: PublishResult): NightbenchError | undefined {
  if (result.failed === 0) return undefined;
  return new NightbenchError('github', `${result.failed} issue action${result.failed === 1 ? '' : 's'} failed (${result.error}); the text is in ${result.filesDir} and the regressions stay recorded`);
}

/** `nightbench issues`: detection's open and recovered regressions as GitHub issues (or files). */
export const issuesCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('issues')
        .description('open, update and close regression issues for a night: on GitHub with a token, else as Markdown files in reports/issues/')
        .option('--night <date>', 'the night to report, YYYY-MM-DD (default: the latest nightly night in the history)')
        .option('--suite <name>', 'only the regressions of this suite')
        .option('--dry-run', 'print the plan (open, comment, close, accept, skip per issue) and change nothing')
        .option('--json', 'print the plan and outcomes as JSON')
        .addHelpText('after', `\nThe token is read from the variable github.tokenEnv names (default GITHUB_TOKEN). Exit codes: 0 when every action succeeded,\n2 on bad input or config, 4 when the history cannot be read, 6 when GitHub kept failing (the issue text is then in reports/issues/).`),
    ).action(async (options: IssuesOptions) => {
      const context = commandContext(options);
      const store = openContextHistory(context);
      try {
        const result = await detectAndPublish(context, store, options);
        process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describePublishResult(result, options.dryRun ?? false)}\n`);
        const failure = publishFailure(result);
        if (failure) throw failure;
        setExitCode(0);
      } finally {
        store.close();
      }
    });
  },
};
