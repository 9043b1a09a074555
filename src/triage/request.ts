/**
 * Which `/nightbench` comment `nightbench triage` acts on: read from the issue_comment event, read
 * from GitHub by comment id, or given as text and author. The command only parses flags.
 *
 * @module
 */
import { repositoryFullName } from '../config/github-section.js';
import { NightbenchError } from '../errors.js';
import type { GitHubClient } from '../issues/github/client.js';
import { gitHubError } from '../issues/github/errors.js';
import { parseJsonFile, validate } from '../validation.js';
import { issueCommentEventSchema } from './event.js';
import type { TriageRequest } from './apply-command.js';

/** Where the comment comes from: an event file, or the issue with a comment id or a body and author. */
export interface TriageSource {
  event?: string;
  repository?: string;
  issue?: number;
  commentId?: number;
  body?: string;
  author?: string;
}

const login = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** The comment to act on: from the event file, from GitHub by id, or from --body and --author. */
export async function resolveTriageRequest(flags: TriageSource, configured: string | undefined, client: GitHubClient): Promise<TriageRequest> {
  const eventFile = flags.event;
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
  const repository = flags.repository ?? configured;
  if (!repository || !repositoryFullName.test(repository)) throw new NightbenchError('usage', 'triage: give --event, or --repository owner/name (or github.repository) with --issue');
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
