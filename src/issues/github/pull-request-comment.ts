/**
 * Posts a pull request's one nightbench comment, or edits it in place: the comment is found by
 * its marker, and only among comments nightbench's own login wrote, so a marker someone else
 * types never redirects the edit to their comment.
 *
 * @module
 */
import type { GitHubClient } from './client.js';
import { gitHubError } from './errors.js';
import { nightbenchLogin } from './identity.js';

export interface PostedComment {
  action: 'created' | 'updated';
  id: number;
  url: string;
}

/** Creates the comment on pull request `number`, or replaces the body of the one carrying `marker`. */
export async function upsertPullRequestComment(client: GitHubClient, repository: string, number: number, marker: string, body: string): Promise<PostedComment> {
  const [owner, repo] = repository.split('/') as [string, string];
  try {
    const login = await nightbenchLogin(client);
    const comments = await client.paginate(client.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
    const own = comments.find((c) => c.user?.login === login && (c.body ?? '').includes(marker));
    if (own) {
      const { data } = await client.rest.issues.updateComment({ owner, repo, comment_id: own.id, body });
      return { action: 'updated', id: data.id, url: data.html_url };
    }
    const { data } = await client.rest.issues.createComment({ owner, repo, issue_number: number, body });
    return { action: 'created', id: data.id, url: data.html_url };
  } catch (error) {
    throw gitHubError(`commenting on pull request #${number}`, repository, error);
  }
}
