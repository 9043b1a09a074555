import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GitTarget } from '../config/schema.js';
import { NightbenchError } from '../errors.js';
import { git, readCommit } from '../git/git.js';
import type { CommitInfo } from '../history/types.js';
import type { Log } from '../log.js';

export interface Checkout {
  repo: string;
  dir: string;
  commit: CommitInfo;
}

/** Where a target repository's own clone lives: detection's blame reads the same clone. */
export function checkoutDir(workdir: string, repo: string): string {
  return path.join(workdir, 'checkouts', repo);
}

/**
 * Brings each repository's own clone up to date (a fetch moves only what is new), and checks out
 * the commit under test: the branch tip, or `commit` for the primary repository, in which case the
 * others take their last commit before it (the state of the world on that night). `commits` names
 * the exact commit of each repository it lists (a bisect's states).
 */
export async function checkoutGitTarget(target: GitTarget, options: { workdir: string; baseDir: string; commit?: string; commits?: Readonly<Record<string, string>>; log: Log }): Promise<Checkout[]> {
  const checkouts: Checkout[] = [];
  let primaryDate: string | undefined;
  for (const [index, repository] of target.repositories.entries()) {
    const dir = checkoutDir(options.workdir, repository.name);
    const url = existsSync(path.resolve(options.baseDir, repository.url)) ? path.resolve(options.baseDir, repository.url) : repository.url;
    const remoteRef = `refs/remotes/origin/${repository.branch}`;
    if (!existsSync(path.join(dir, '.git'))) {
      mkdirSync(path.dirname(dir), { recursive: true });
      options.log.info(`cloning ${repository.name} from ${url}`);
      await git(['clone', '--no-checkout', '--branch', repository.branch, url, dir], options.workdir);
    } else if (!options.commits?.[repository.name]) {
      // An exact commit (a bisect's state) is fetched by resolveCommit only when the clone lacks it.
      const before = await git(['rev-parse', '--verify', '--quiet', remoteRef], dir).catch(() => '');
      await git(['fetch', '--quiet', 'origin', `+refs/heads/${repository.branch}:${remoteRef}`], dir);
      const after = (await git(['rev-parse', remoteRef], dir)).trim();
      const fresh = before.trim() ? (await git(['rev-list', '--count', `${before.trim()}..${after}`], dir)).trim() : 'all';
      options.log.info(`fetched ${repository.name}: ${fresh} new commit${fresh === '1' ? '' : 's'} on ${repository.branch}`);
    }
    const exact = options.commits?.[repository.name];
    const sha = await resolveCommit(dir, remoteRef, exact ?? (index === 0 ? options.commit : undefined), index === 0 || exact ? undefined : primaryDate);
    await git(['checkout', '--quiet', '--force', '--detach', sha], dir);
    await git(['clean', '-ffdxq'], dir);
    const commit = await readCommit(dir, repository.name, sha);
    if (index === 0) primaryDate = commit.committedAt;
    options.log.info(`${repository.name} at ${sha.slice(0, 10)} ${commit.subject}`);
    checkouts.push({ repo: repository.name, dir, commit });
  }
  return checkouts;
}

async function resolveCommit(dir: string, remoteRef: string, wanted: string | undefined, notAfter: string | undefined): Promise<string> {
  if (wanted) {
    const known = await git(['rev-parse', '--verify', '--quiet', `${wanted}^{commit}`], dir).catch(() => '');
    if (!known.trim()) await git(['fetch', '--quiet', 'origin', wanted], dir).catch(() => undefined);
    const sha = await git(['rev-parse', '--verify', '--quiet', `${wanted}^{commit}`], dir).catch(() => '');
    if (!sha.trim()) throw new NightbenchError('target', `commit ${wanted} does not exist in ${dir} (nor on its remote)`);
    return sha.trim();
  }
  if (notAfter) {
    const sha = (await git(['rev-list', '-1', `--before=${notAfter}`, remoteRef], dir)).trim();
    if (sha) return sha;
  }
  return (await git(['rev-parse', remoteRef], dir)).trim();
}
