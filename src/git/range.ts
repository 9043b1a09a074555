import { blameTouchedLines, type FileBlame } from './blame.js';
import { parseNumstat, parseTouchedLines, type FileChange } from './diff.js';
import { git } from './git.js';
import type { Log } from '../log.js';
import { ensureHistory } from './history.js';
import { parsePullRequestNumber } from './pull-request.js';

/** A commit of a suspect range as an issue shows it. */
export interface RangeCommit {
  sha: string;
  subject: string;
  authorName: string;
  authorEmail: string;
  authoredAt: string;
  pullRequest?: number;
}

/** Everything git can say about a suspect range: last good (exclusive) .. first bad (inclusive). */
export interface RangeContext {
  repo: string;
  from: string;
  to: string;
  /** Newest first, as `git log` lists them. */
  commits: RangeCommit[];
  /** How many commits the range has; `commits` stops at `maxCommits`. */
  commitCount: number;
  files: FileChange[];
  /** Who wrote the touched lines before the range, for the files with the most changed lines. */
  blame: FileBlame[];
}

export interface RangeOptions {
  /** Lines around each change that count as its surroundings (default 3). */
  contextLines?: number;
  /** The most commits listed (default 50); a long range is summarized by its count. */
  maxCommits?: number;
  /** The most files blamed (default 10), those with the most changed lines first. */
  maxBlameFiles?: number;
}

const separator = '\x1f';
const terminator = '\x1e';

/**
 * Collects the commits, changed files and blame context of `from..to` in the clone at `dir`,
 * fetching what a shallow or stale clone lacks first.
 */
export async function collectRangeContext(dir: string, repo: string, from: string, to: string, log: Log, options: RangeOptions = {}): Promise<RangeContext> {
  const { contextLines = 3, maxCommits = 50, maxBlameFiles = 10 } = options;
  await ensureHistory(dir, repo, [from, to], log);
  const [fromSha, toSha] = (await git(['rev-parse', `${from}^{commit}`, `${to}^{commit}`], dir)).trim().split('\n') as [string, string];
  const range = `${fromSha}..${toSha}`;
  const commitCount = Number((await git(['rev-list', '--count', range], dir)).trim());
  const listed = await git(['log', `--max-count=${maxCommits}`, `--format=${['%H', '%aN', '%aE', '%aI', '%s'].join(separator)}${terminator}`, range], dir);
  const commits = listed
    .split(terminator)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): RangeCommit => {
      const [sha, authorName, authorEmail, authoredAt, subject] = entry.split(separator) as [string, string, string, string, string];
      const pullRequest = parsePullRequestNumber(subject);
      return { sha, authorName, authorEmail, authoredAt, subject, ...(pullRequest === undefined ? {} : { pullRequest }) };
    });
  const files = parseNumstat(await git(['diff', '--numstat', '--no-renames', fromSha, toSha], dir));
  const touched = parseTouchedLines(await git(['diff', '-U0', '--no-color', '--no-renames', '--no-ext-diff', fromSha, toSha], dir), contextLines);
  const mostChanged = new Map(files.map((file) => [file.path, (file.added ?? 0) + (file.removed ?? 0)]));
  const blamed = [...touched].sort((a, b) => (mostChanged.get(b.path) ?? 0) - (mostChanged.get(a.path) ?? 0)).slice(0, maxBlameFiles);
  const blame: FileBlame[] = [];
  for (const file of blamed) blame.push(await blameTouchedLines(dir, fromSha, file));
  return { repo, from: fromSha, to: toSha, commits, commitCount, files, blame };
}
