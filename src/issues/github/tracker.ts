/**
 * The IssueTracker on GitHub: issues found by label and fingerprint among open and closed
 * issues, opened with labels, commented on and closed through Octokit.
 *
 * @module
 */
import type { GitHubClient } from './client.js';
import { gitHubError } from './errors.js';
import { nightbenchLogin, ownTexts } from './identity.js';
import { closedByNightbench, readFingerprint, readImprovements, readNights } from '../markers.js';
import type { IssueTracker, NewIssue, TrackedIssue } from '../tracker.js';

/** The fingerprint nightbench left in issue `number` of `fullName`; undefined for an issue it did not write, or none. */
export async function readIssueFingerprint(client: GitHubClient, fullName: string, number: number): Promise<string | undefined> {
  const [owner, repo] = fullName.split('/') as [string, string];
  try {
    const { data } = await client.rest.issues.get({ owner, repo, issue_number: number });
    return data.pull_request ? undefined : readFingerprint(data.body);
  } catch (error) {
    // No such issue is an answer (the caller says what it looked for), not a GitHub failure.
    if ((error as { status?: unknown }).status === 404 && (error as { response?: unknown }).response !== undefined) return undefined;
    throw gitHubError(`reading #${number}`, fullName, error);
  }
}

export function gitHubTracker(client: GitHubClient, fullName: string, labels: readonly string[]): IssueTracker {
  const [owner, repo] = fullName.split('/') as [string, string];
  const guard = async <T>(action: string, body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      throw gitHubError(action, fullName, error);
    }
  };
  const issueNumber = (issue: TrackedIssue) => {
    if (issue.number === undefined) throw new Error(`${issue.ref} has no GitHub issue number`);
    return issue.number;
  };

  return {
    description: `GitHub ${fullName}`,

    find: (fingerprints) =>
      guard('finding issues', async () => {
        const wanted = new Set(fingerprints);
        // Closed issues too: one a maintainer closed must be found so that it is not opened again.
        const listed = await client.paginate(client.rest.issues.listForRepo, { owner, repo, state: 'all', labels: labels.join(','), per_page: 100 });
        const found: TrackedIssue[] = [];
        // Of twins opened by two writers at once, the first opened is the issue; the others were closed as its duplicates.
        const firstOf = new Map<string, number>();
        for (const issue of listed) {
          const fingerprint = readFingerprint(issue.body);
          if (!issue.pull_request && fingerprint && issue.number < (firstOf.get(fingerprint) ?? Infinity)) firstOf.set(fingerprint, issue.number);
        }
        for (const issue of listed) {
          const fingerprint = readFingerprint(issue.body);
          if (issue.pull_request || !fingerprint || !wanted.has(fingerprint) || firstOf.get(fingerprint) !== issue.number) continue;
          const comments = await client.paginate(client.rest.issues.listComments, { owner, repo, issue_number: issue.number, per_page: 100 });
          // Markers count only in nightbench's own comments: anyone else's would stop it commenting or closing.
          const texts = [issue.body, ...ownTexts(comments, await nightbenchLogin(client))];
          found.push({
            fingerprint,
            number: issue.number,
            ref: `${fullName}#${issue.number}`,
            url: issue.html_url,
            state: issue.state === 'closed' ? 'closed' : 'open',
            closedByNightbench: closedByNightbench(texts),
            reportedNights: readNights(texts),
            notedImprovements: readImprovements(texts),
          });
        }
        return found;
      }),

    open: (issue: NewIssue) =>
      guard('opening an issue', async () => {
        const { data } = await client.rest.issues.create({ owner, repo, title: issue.title, body: issue.body, labels: issue.labels });
        const opened: TrackedIssue = { fingerprint: issue.fingerprint, number: data.number, ref: `${fullName}#${data.number}`, url: data.html_url, state: 'open', closedByNightbench: false, reportedNights: readNights([issue.body]), notedImprovements: [] };
        // Two writers at once (two nightlies) may both have found no issue and opened one: the
        // first opened stays, and a later twin is closed as its duplicate by the writer that opened it.
        const listed = await client.paginate(client.rest.issues.listForRepo, { owner, repo, state: 'all', labels: issue.labels.join(','), per_page: 100 });
        const first = listed.filter((i) => !i.pull_request && i.number < data.number && readFingerprint(i.body) === issue.fingerprint).sort((a, b) => a.number - b.number)[0];
        if (!first) return opened;
        await client.rest.issues.createComment({ owner, repo, issue_number: data.number, body: `Duplicate of #${first.number}, opened at the same time by another nightbench run; closing this one.` });
        await client.rest.issues.update({ owner, repo, issue_number: data.number, state: 'closed', state_reason: 'not_planned' });
        const [kept] = await gitHubTracker(client, fullName, labels).find([issue.fingerprint]);
        return kept ?? { ...opened, number: first.number, ref: `${fullName}#${first.number}`, url: first.html_url };
      }),

    comment: (issue, body) =>
      guard(`commenting on #${issue.number}`, async () => {
        await client.rest.issues.createComment({ owner, repo, issue_number: issueNumber(issue), body });
      }),

    close: (issue, body) =>
      guard(`closing #${issue.number}`, async () => {
        await client.rest.issues.createComment({ owner, repo, issue_number: issueNumber(issue), body });
        await client.rest.issues.update({ owner, repo, issue_number: issueNumber(issue), state: 'closed', state_reason: 'completed' });
      }),
  };
}
