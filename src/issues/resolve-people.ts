/**
 * Commit authors to GitHub logins and commits to pull requests, through Octokit. Best effort:
 * an issue without logins still names everyone, so a failed lookup is a warning, not an error.
 *
 * @module
 */
import type { RangeContext } from '../git/range.js';
import type { Log } from '../log.js';
import type { GitHubClient } from './github/client.js';
import { firstLine } from '../errors.js';
import type { GitHubPeople } from './people.js';

/**
 * Looks up each commit of the ranges (and one commit of each blamed author) in the GitHub
 * repository `targetRepositories` maps its repository to; unmapped repositories are skipped.
 */
export async function resolvePeople(client: GitHubClient, targetRepositories: Record<string, string>, ranges: readonly RangeContext[], log: Log): Promise<GitHubPeople> {
  const people: GitHubPeople = { logins: {}, pulls: {} };
  for (const range of ranges) {
    const fullName = targetRepositories[range.repo];
    if (!fullName) continue;
    const [owner, repo] = fullName.split('/') as [string, string];
    const shas = new Set([...range.commits.map((c) => c.sha), ...range.blame.flatMap((f) => f.authors.map((a) => a.sha))]);
    try {
      for (const sha of shas) {
        const { data } = await client.rest.repos.getCommit({ owner, repo, ref: sha });
        if (data.author?.login) people.logins[sha] = data.author.login;
      }
      for (const commit of range.commits.filter((c) => c.pullRequest === undefined)) {
        const { data } = await client.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo, commit_sha: commit.sha });
        if (data[0]) people.pulls[commit.sha] = data[0].number;
      }
    } catch (error) {
      log.warn(`could not look up authors of ${range.repo} in ${fullName} on GitHub (${firstLine(error)}); the issue names them without logins`);
    }
  }
  return people;
}
