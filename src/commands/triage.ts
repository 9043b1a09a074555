import type { Command } from 'commander';
import { parseJsonFile, validate } from '../validation.js';
import { NightbenchError } from '../errors.js';
import { createGitHubClient, type GitHubClient } from '../issues/github/client.js';
import { gitHubError } from '../issues/github/errors.js';
import { issueCommentEventSchema } from '../triage/event.js';
import { runTriage, type TriageRequest } from '../triage/apply-command.js';
import { addCommonOptions, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory } from './context.js';

interface TriageFlags extends CommonOptions {
  event?: string;
  repository?: string;
  issue?: number;
  commentId?: number;
  body?: string;
  author?: string;
}

const login = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

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
        .option('--issue <n>', 'without an event: the issue number', parseIntegerOption('--issue'))
        .option('--comment-id <id>', 'without an event: the comment, read from GitHub (its text and author)', parseIntegerOption('--comment-id'))
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
      const token = process.env[github.tokenEnv];
      if (!token) throw new NightbenchError('usage', `triage talks to GitHub: set a token in ${github.tokenEnv}`);
      const client = createGitHubClient(github, token, context.log);
      const request = await triageRequest(flags, github.repository, client);
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

/** The comment to act on: from the event file, from GitHub by id, or from --body and --author. */
async function triageRequest(flags: TriageFlags, configured: string | undefined, client: GitHubClient): Promise<TriageRequest> {
  const eventFile = flags.event ?? (flags.issue === undefined ? process.env['GITHUB_EVENT_PATH'] : undefined);
  if (eventFile) {
    const event = validate(issueCommentEventSchema, parseJsonFile(eventFile), `issue_comment event ${eventFile}`);
    const { comment } = event;
    return {
      repository: event.repository.full_name,
      issueNumber: event.issue.number,
      defaultBranch: event.repository.default_branch,
      comment: { id: comment.id, body: comment.body, author: comment.user.login, authorIsBot: comment.user.type === 'Bot', at: comment.created_at },
    };
  }
  const repository = flags.repository ?? configured ?? process.env['GITHUB_REPOSITORY'];
  if (!repository || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) throw new NightbenchError('usage', 'triage: give --event, or --repository owner/name (or github.repository) with --issue');
  if (flags.issue === undefined || flags.issue < 1) throw new NightbenchError('usage', 'triage: --issue N is needed without an event');
  const [owner, repo] = repository.split('/') as [string, string];
  if (flags.commentId !== undefined) {
    const { data } = await client.rest.issues.getComment({ owner, repo, comment_id: flags.commentId }).catch((error: unknown) => {
      throw gitHubError(`reading comment ${flags.commentId}`, repository, error);
    });
    return { repository, issueNumber: flags.issue, comment: { id: data.id, body: data.body ?? '', author: data.user?.login ?? '', authorIsBot: data.user?.type === 'Bot', at: data.created_at } };
  }
  if (flags.body === undefined || flags.author === undefined) throw new NightbenchError('usage', 'triage: give --comment-id, or --body and --author');
  if (!login.test(flags.author)) throw new NightbenchError('usage', `triage: --author must be a GitHub login, got "${flags.author}"`);
  return { repository, issueNumber: flags.issue, comment: { body: flags.body, author: flags.author, authorIsBot: false, at: new Date().toISOString() } };
}
