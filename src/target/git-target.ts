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

/** Which commit of each repository a night or run tests; see {@link selectTargetCommits}. */
export interface TargetSelection {
  /** Test this commit of the primary repository; the others take their last commit before it. */
  commit?: string;
  /** Exact commits of the repositories it names (a bisect's states). */
  commits?: Readonly<Record<string, string>>;
  /** A night's cut-off (ISO timestamp): each repository at its last first-parent commit before it (backfills). */
  cutoff?: string;
}

/**
 * Brings each repository's own clone up to date (a fetch moves only what is new) and picks the
 * commit under test: the branch tip; or `commit` for the primary repository, in which case the
 * others take their last commit before it (the state of the world on that night); or, with a
 * `cutoff`, each one's last commit before it. `commits` names the exact commit of each
 * repository it lists (a bisect's states). Nothing is checked out: a dry run lists these.
 */
export async function selectTargetCommits(target: GitTarget, options: TargetSelection & { workdir: string; baseDir: string; log: Log }): Promise<Checkout[]> {
  const selected: Checkout[] = [];
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
    const wanted = exact ?? (index === 0 ? options.commit : undefined);
    const byCutoff = !wanted && !options.commit && options.cutoff !== undefined;
    const sha = byCutoff
      ? await lastCommitBefore(dir, remoteRef, options.cutoff!, repository.name)
      : await resolveCommit(dir, remoteRef, wanted, index === 0 || wanted ? undefined : primaryDate);
    const commit = await readCommit(dir, repository.name, sha);
    if (index === 0) primaryDate = commit.committedAt;
    selected.push({ repo: repository.name, dir, commit });
  }
  return selected;
}

/** {@link selectTargetCommits}, then each repository's clone checked out clean at its commit. */
export async function checkoutGitTarget(target: GitTarget, options: TargetSelection & { workdir: string; baseDir: string; log: Log }): Promise<Checkout[]> {
  const checkouts = await selectTargetCommits(target, options);
  for (const { dir, repo, commit } of checkouts) {
    await git(['checkout', '--quiet', '--force', '--detach', commit.sha], dir);
    await git(['clean', '-ffdxq'], dir);
    options.log.info(`${repo} at ${commit.sha.slice(0, 10)} ${commit.subject}`);
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

/** The branch's last state before `cutoff`, along its first-parent line (the states the branch itself went through). */
async function lastCommitBefore(dir: string, remoteRef: string, cutoff: string, repo: string): Promise<string> {
  const sha = (await git(['rev-list', '-1', '--first-parent', `--before=${cutoff}`, remoteRef], dir)).trim();
  if (!sha) throw new NightbenchError('target', `${repo} has no commit before ${cutoff}: the night is older than the repository`);
  return sha;
}
