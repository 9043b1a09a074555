import type { Command } from 'commander';
import { gitHubClientFromEnv } from '../issues/github/client.js';
import { runTriage } from '../triage/apply-command.js';
import { resolveTriageRequest, type TriageSource } from '../triage/request.js';
import { addCommonOptions, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory } from './context.js';

interface TriageFlags extends CommonOptions, TriageSource {}

/**
 * `nightbench triage`: a `/nightbench <command>` comment on a regression issue, carried out.
 * In a workflow the comment comes from the issue_comment event; by hand from flags.
 */
export const triageCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('triage')
        .description('carry out a "/nightbench <command>" comment on a regression issue: accept, false-alarm, bisect, rerun, fixed-by SHA')
        .option('--event <file>', 'the issue_comment event (default: $GITHUB_EVENT_PATH)')
        .option('--repository <owner/name>', 'without an event: the repository (default: github.repository, else $GITHUB_REPOSITORY)')
        .option('--issue <n>', 'without an event: the issue number', parseIntegerOption('--issue', 1))
        .option('--comment-id <id>', 'without an event: the comment, read from GitHub (its text and author)', parseIntegerOption('--comment-id', 1))
        .option('--body <text>', 'without an event or comment id: the command text, e.g. "/nightbench accept"')
        .option('--author <login>', 'with --body: whose command it is (their permission is checked on GitHub)')
        .option('--json', 'print the outcome as JSON')
        .addHelpText(
          'after',
          `\nOnly people with write, maintain or admin permission (asked of GitHub) change anything; anyone else gets a polite reply.\nThe token is read from the variable github.tokenEnv names (default GITHUB_TOKEN). Exit codes: 0 when the comment was handled\n(refusals and unknown commands included), 2 on bad input, 4 when the history cannot be read, 6 when GitHub kept failing.`,
        ),
    ).action(async (flags: TriageFlags) => {
      const context = commandContext(flags);
      const github = context.loaded.config.github;
      const client = gitHubClientFromEnv(github, 'triage', context.log);
      const request = await resolveTriageRequest({ ...flags, event: flags.event ?? (flags.issue === undefined ? process.env['GITHUB_EVENT_PATH'] : undefined) }, github.repository ?? process.env['GITHUB_REPOSITORY'], client);
      const store = openContextHistory(context);
      try {
        const outcome = await runTriage({ client, store, log: context.log }, request);
        process.stdout.write(
          flags.json ? `${JSON.stringify(outcome, null, 2)}\n` : `#${request.issueNumber}: ${outcome.result}${outcome.command ? ` (${outcome.command}, ${outcome.episodes} episodes)` : ''}\n`,
        );
      } finally {
        store.close();
      }
      setExitCode(0);
    });
  },
};
