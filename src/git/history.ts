import { NightbenchError } from '../errors.js';
import type { Log } from '../log.js';
import { git, gitFromRemote } from './git.js';

async function hasCommit(dir: string, sha: string): Promise<boolean> {
  try {
    await git(['cat-file', '-e', `${sha}^{commit}`], dir);
    return true;
  } catch {
    return false;
  }
}

async function isShallow(dir: string): Promise<boolean> {
  return (await git(['rev-parse', '--is-shallow-repository'], dir)).trim() === 'true';
}

/**
 * Makes sure `shas` and all their history are in the clone at `dir`: the nightly checkout may
 * be shallow or behind, and ranges and blame need the commits between nights and before them.
 * Fetches only when something is missing, trying again while the remote fails in a way that
 * passes (a 5xx, a dropped connection). A sha the remote no longer has (a force-push rewrote
 * it) is a git error that names it.
 */
export async function ensureHistory(dir: string, repo: string, shas: readonly string[], log: Log): Promise<void> {
  const missing = async () => (await Promise.all(shas.map(async (sha) => ((await hasCommit(dir, sha)) ? undefined : sha)))).filter((sha) => sha !== undefined);
  const shallow = await isShallow(dir);
  const hasOrigin = (await git(['remote'], dir)).split('\n').includes('origin');
  if (hasOrigin && (shallow || (await missing()).length > 0)) {
    await gitFromRemote(['fetch', '--quiet', '--tags', ...(shallow ? ['--unshallow'] : []), 'origin', '+refs/heads/*:refs/remotes/origin/*'], dir, log);
  }
  const stillMissing = await missing();
  if (stillMissing.length > 0) {
    throw new NightbenchError('git', `${repo}: commit${stillMissing.length > 1 ? 's' : ''} ${stillMissing.map((sha) => sha.slice(0, 12)).join(', ')} no longer exist${stillMissing.length > 1 ? '' : 's'} in ${dir} or its remote (was the branch force-pushed?)`);
  }
}
