import { execFile } from 'node:child_process';
import { NightbenchError } from '../errors.js';
import type { CommitInfo } from '../history/types.js';
import type { Log } from '../log.js';
import { defaultRetryPolicy, retryTransient } from '../retry.js';

/** Runs git and returns its stdout; a failure is a git error carrying git's own cause line. */
export function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) {
        const lines = (stderr || error.message).trim().split('\n').filter(Boolean);
        // git's first fatal:/error: line says what went wrong; the lines after it may be advice
        // alone ("Please make sure you have the correct access rights / and the repository exists.").
        const detail = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? error.message;
        reject(new NightbenchError('git', `git ${args[0]} failed in ${cwd}: ${detail}`, { cause: error, transient: isTransientGitFailure(stderr) }));
      } else {
        resolve(stdout);
      }
    });
  });
}

/**
 * {@link git} for a command that talks to a remote (clone, fetch), tried again while the remote
 * fails in a way that passes (a GitHub 5xx, a dropped connection), each wait logged: one such blip
 * must not cost a night its runs or an issue its commits.
 */
export function gitFromRemote(args: string[], cwd: string, log: Log): Promise<string> {
  return retryTransient(defaultRetryPolicy, { log }, () => git(args, cwd));
}

/** What git (through curl or ssh) says when the server refused the request for good: retrying cannot help. */
const permanentRemoteFailure = [
  /returned error: 4(?!29)\d\d/, // HTTP 4xx but 429 (too many requests)
  /Authentication failed|could not read (Username|Password)|Permission denied|Repository not found|does not appear to be a git repository|not found/i,
];

/** What git says when the network or the server failed on the way: a 5xx, a 429, a dropped or refused connection, a timeout, DNS. */
const passingRemoteFailure = [
  /returned error: (5\d\d|429)|RPC failed|HTTP\/2 stream \d+ was not closed cleanly/,
  /Could not resolve host|Failed to connect to|Connection (timed out|reset|refused|closed by remote host)|Operation timed out|Empty reply from server/i,
  /remote end hung up unexpectedly|early EOF|unexpected disconnect while reading sideband packet|gnutls_handshake\(\) failed|SSL_ERROR_SYSCALL|kex_exchange_identification/i,
];

/**
 * Whether a failed git command's stderr says the remote failed in a way that passes (a GitHub
 * 502, a connection dropped mid-push), so the same command may succeed a little later. A
 * refusal (no permission, no such repository) never does, even when a dropped connection follows it.
 */
export function isTransientGitFailure(stderr: string): boolean {
  if (permanentRemoteFailure.some((pattern) => pattern.test(stderr))) return false;
  return passingRemoteFailure.some((pattern) => pattern.test(stderr));
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
