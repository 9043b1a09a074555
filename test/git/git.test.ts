import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NightbenchError } from '../../src/errors.js';
import { git, isTransientGitFailure } from '../../src/git/git.js';
import { tempDir } from '../helpers/temp-dir.js';

async function failure(promise: Promise<unknown>): Promise<NightbenchError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(NightbenchError);
  return error as NightbenchError;
}

describe('git', () => {
  it("names git's cause, not the advice printed after it, and does not call a missing repository transient", async () => {
    const dir = tempDir('nb-git-');
    const missing = path.join(dir, 'no-such-repository');
    // git says why on its first fatal: line, then "Please make sure you have the correct access
    // rights" and "and the repository exists." on lines of their own.
    const error = await failure(git(['ls-remote', missing], dir));
    expect(error.message).toMatch(new RegExp(`^git ls-remote failed in .*: fatal: '${missing}' does not appear to be a git repository$`));
    expect(error.transient).toBe(false);
  });

  it('marks a refused connection transient: a server restarting answers again', async () => {
    const dir = tempDir('nb-git-');
    const error = await failure(git(['ls-remote', 'http://127.0.0.1:9/none.git'], dir));
    expect(error.message).toMatch(/Failed to connect|Connection refused|Could not connect/);
    expect(error.transient).toBe(true);
  });
});

describe('isTransientGitFailure', () => {
  it.each([
    "fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 502",
    'error: RPC failed; HTTP 500 curl 22 The requested URL returned error: 500\nsend-pack: unexpected disconnect while reading sideband packet\nfatal: the remote end hung up unexpectedly',
    "fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 429",
    "fatal: unable to access 'https://github.com/o/r.git/': Could not resolve host: github.com",
    "fatal: unable to access 'https://github.com/o/r.git/': Failed to connect to github.com port 443 after 130 ms: Connection timed out",
    'error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err 8)\nfatal: early EOF\nfatal: fetch-pack: invalid index-pack output',
    "fatal: unable to access 'https://github.com/o/r.git/': gnutls_handshake() failed: Error in the pull function.",
    'kex_exchange_identification: Connection closed by remote host\nfatal: Could not read from remote repository.',
  ])('passes: %s', (stderr) => {
    expect(isTransientGitFailure(stderr)).toBe(true);
  });

  it.each([
    "remote: Repository not found.\nfatal: repository 'https://github.com/o/r.git/' not found",
    "remote: Permission to o/r.git denied to bot.\nfatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 403",
    "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
    "fatal: Authentication failed for 'https://github.com/o/r.git/'",
    'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
    // A refusal followed by the dropped connection it causes is still a refusal.
    'error: RPC failed; HTTP 413 curl 22 The requested URL returned error: 413\nfatal: the remote end hung up unexpectedly',
    "fatal: couldn't find remote ref refs/heads/nightbench-history",
    ' ! [rejected]        abc -> nightbench-history (non-fast-forward)\nerror: failed to push some refs',
  ])('does not pass: %s', (stderr) => {
    expect(isTransientGitFailure(stderr)).toBe(false);
  });
});
