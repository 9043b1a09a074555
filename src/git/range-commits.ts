import type { Log } from '../log.js';
import { git } from './git.js';
import { ensureHistory } from './history.js';

/** A commit of a suspect range, as git lists it. */
export interface RangeCommit {
  repo: string;
  sha: string;
  committedAt: string;
  subject: string;
  authorName: string;
  authorEmail: string;
}

const separator = '\x1f';
const terminator = '\x1e';

/**
 * The commits of `from..to` oldest first, along the first-parent line: the states the branch
 * itself went through, which are the states a nightly could have tested (a merged branch's own
 * commits were never a tip). Fetches what a shallow or stale clone lacks first.
 */
export async function listRangeCommits(dir: string, repo: string, from: string, to: string, log: Log): Promise<RangeCommit[]> {
  await ensureHistory(dir, repo, [from, to], log);
  const listed = await git(['log', '--first-parent', '--reverse', `--format=${['%H', '%cI', '%aN', '%aE', '%s'].join(separator)}${terminator}`, `${from}..${to}`], dir);
  return listed
    .split(terminator)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [sha, committedAt, authorName, authorEmail, subject] = entry.split(separator) as [string, string, string, string, string];
      return { repo, sha, committedAt, authorName, authorEmail, subject };
    });
}
