import type { Command } from 'commander';
import { describePublishResult, publishFailure } from '../nightly/issues.js';
import { publishNightIssues } from '../nightly/pipeline.js';
import { addCommonOptions, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';
import { nightOption } from './input.js';

interface IssuesOptions extends CommonOptions {
  night?: string;
  suite?: string;
  dryRun?: boolean;
}

/** `nightbench issues`: detection's open and recovered regressions as GitHub issues (or files). */
export const issuesCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('issues')
        .description('open, update and close regression issues for a night: on GitHub with a token, else as Markdown files in reports/issues/')
        .option('--night <date>', 'the night to report, YYYY-MM-DD (default: the latest nightly night in the history)', nightOption)
        .option('--suite <name>', 'only the regressions of this suite')
        .option('--dry-run', 'print the plan (open, comment, close, accept, skip per issue) and change nothing')
        .option('--json', 'print the plan and outcomes as JSON')
        .addHelpText('after', `\nThe token is read from the variable github.tokenEnv names (default GITHUB_TOKEN). Exit codes: 0 when every action succeeded,\n2 on bad input or config, 4 when the history cannot be read, 6 when GitHub kept failing (the issue text is then in reports/issues/).`),
    ).action(async (options: IssuesOptions) => {
      const context = commandContext(options);
      const result = await publishNightIssues(context, options);
      process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describePublishResult(result, options.dryRun ?? false)}\n`);
      const failure = publishFailure(result);
      if (failure) throw failure;
      setExitCode(0);
    });
  },
};
