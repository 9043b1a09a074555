import { execFile } from 'node:child_process';
import { NightbenchError } from '../errors.js';
import type { CommitInfo } from '../history/types.js';

/** Runs git and returns its stdout; a failure is a git error carrying git's own cause line. */
export function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) {
        const lines = (stderr || error.message).trim().split('\n').filter(Boolean);
        // git's first fatal:/error: line says what went wrong; the lines after it may be advice
        // alone ("Please make sure you have the correct access rights / and the repository exists.").
        const detail = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? error.message;
        reject(new NightbenchError('git', `git ${args[0]} failed in ${cwd}: ${detail}`, { cause: error }));
      } else {
        resolve(stdout);
      }
    });
  });
}

const fieldSeparator = '\x1f';

/** Everything the history keeps of a commit, read with one `git show`. */
export async function readCommit(dir: string, repo: string, sha: string): Promise<CommitInfo> {
  const format = ['%H', '%P', '%an', '%ae', '%aI', '%cI', '%s'].join(fieldSeparator);
  const out = await git(['show', '-s', `--format=${format}`, sha], dir);
  const [full, parents, authorName, authorEmail, authoredAt, committedAt, subject] = out.trimEnd().split(fieldSeparator);
  return {
    repo,
    sha: full!,
    parents: parents ? parents.split(' ') : [],
    authorName: authorName ?? '',
    authorEmail: authorEmail ?? '',
    authoredAt: authoredAt ?? '',
    committedAt: committedAt ?? '',
    subject: subject ?? '',
  };
}
