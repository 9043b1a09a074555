import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GitTarget } from '../config/schema.js';
import { NightbenchError } from '../errors.js';
import { git, gitFromRemote, readCommit } from '../git/git.js';
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

/** Which commit of each repository to check out; whatever it does not pin is at its branch tip. */
export interface CheckoutPins {
  /** Test this commit of the primary (first) repository instead of its tip. */
  commit?: string;
  /** Exact commits of the repositories it names (a bisect's states). */
  commits?: Readonly<Record<string, string>>;
  /**
   * The night's cut-off (an ISO instant): every repository not pinned is at its last
   * first-parent commit before it, its own state on that night.
   */
  cutoff?: string;
}

/**
 * Brings each repository's own clone up to date (a fetch moves only what is new) and picks the
 * commit under test of each, checking nothing out (a backfill's dry run lists these): the one
 * `pins` names, else its last commit before the night's cut-off, else its branch tip. Only `commit` without a cut-off pairs the other repositories
 * with the primary's commit date (a bisect given one SHA, an A/B environment's `ref`).
 */
export async function selectTargetCommits(target: GitTarget, options: CheckoutPins & { workdir: string; baseDir: string; log: Log }): Promise<Checkout[]> {
  const selected: Checkout[] = [];
  let primaryDate: string | undefined;
  for (const [index, repository] of target.repositories.entries()) {
    const dir = checkoutDir(options.workdir, repository.name);
    const url = existsSync(path.resolve(options.baseDir, repository.url)) ? path.resolve(options.baseDir, repository.url) : repository.url;
    const remoteRef = `refs/remotes/origin/${repository.branch}`;
    if (!existsSync(path.join(dir, '.git'))) {
      mkdirSync(path.dirname(dir), { recursive: true });
      options.log.info(`cloning ${repository.name} from ${url}`);
      await gitFromRemote(['clone', '--no-checkout', '--branch', repository.branch, '--', url, dir], options.workdir, options.log);
    } else if (!options.commits?.[repository.name]) {
      // An exact commit (a bisect's state) is fetched by resolveExactCommit only when the clone lacks it.
      const before = await git(['rev-parse', '--verify', '--quiet', remoteRef], dir).catch(() => '');
      await gitFromRemote(['fetch', '--quiet', 'origin', '--end-of-options', `+refs/heads/${repository.branch}:${remoteRef}`], dir, options.log);
      const after = (await git(['rev-parse', remoteRef], dir)).trim();
      const fresh = before.trim() ? (await git(['rev-list', '--count', `${before.trim()}..${after}`], dir)).trim() : 'all';
      options.log.info(`fetched ${repository.name}: ${fresh} new commit${fresh === '1' ? '' : 's'} on ${repository.branch}`);
    }
    const exact = options.commits?.[repository.name] ?? (index === 0 ? options.commit : undefined);
    const sha = exact ? await resolveExactCommit(dir, exact, options.log) : await resolveBranchCommit(dir, repository.name, remoteRef, { cutoff: options.cutoff, pairedWith: options.commit ? primaryDate : undefined });
    const commit = await readCommit(dir, repository.name, sha);
    if (index === 0) primaryDate = commit.committedAt;
    selected.push({ repo: repository.name, dir, commit });
  }
  return selected;
}

/** {@link selectTargetCommits}, then each repository's clone checked out clean at its commit. */
export async function checkoutGitTarget(target: GitTarget, options: CheckoutPins & { workdir: string; baseDir: string; log: Log }): Promise<Checkout[]> {
  const checkouts = await selectTargetCommits(target, options);
  for (const { dir, repo, commit } of checkouts) {
    await git(['checkout', '--quiet', '--force', '--detach', commit.sha], dir);
    await git(['clean', '-ffdxq'], dir);
    options.log.info(`${repo} at ${commit.sha.slice(0, 10)} ${commit.subject}`);
  }
  return checkouts;
}

async function resolveExactCommit(dir: string, wanted: string, log: Log): Promise<string> {
  // Checked where the CLI reads it too; here it guards every other way in (issues, triage, files).
  if (wanted.startsWith('-')) throw new NightbenchError('usage', `a revision cannot start with "-", got "${wanted}"`);
  const resolve = () => git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${wanted}^{commit}`], dir).catch(() => '');
  if (!(await resolve()).trim()) {
    // A remote that refuses the commit leaves it missing (said below); one that stays down says so itself.
    await gitFromRemote(['fetch', '--quiet', 'origin', '--end-of-options', wanted], dir, log).catch((error: unknown) => {
      if (error instanceof NightbenchError && error.transient) throw error;
    });
  }
  const sha = (await resolve()).trim();
  if (!sha) throw new NightbenchError('target', `commit ${wanted} does not exist in ${dir} (nor on its remote)`);
  return sha;
}

/**
 * The branch's last first-parent commit before the cut-off; without one, before `pairedWith`
 * (the primary's commit date; its tip when it has none that old); else its tip.
 */
async function resolveBranchCommit(dir: string, repo: string, remoteRef: string, before: { cutoff?: string; pairedWith?: string }): Promise<string> {
  const notAfter = before.cutoff ?? before.pairedWith;
  const sha = notAfter ? (await git(['rev-list', '-1', '--first-parent', `--before=${notAfter}`, remoteRef], dir)).trim() : '';
  if (sha) return sha;
  if (before.cutoff) throw new NightbenchError('target', `${repo} has no commit before the night's cut-off ${before.cutoff}: the night is older than the repository`);
  return (await git(['rev-parse', remoteRef], dir)).trim();
}
