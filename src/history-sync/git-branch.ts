import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { NightbenchError } from '../errors.js';
import { git } from '../git/git.js';
import { mergeRunsInto } from '../history/files.js';
import { backendFactory, type FetchOutcome, type HistoryBackend, type SaveOutcome } from './backend.js';
import { redactCredentials } from './redact.js';
import { defaultRetryPolicy, retry, retryPolicyOf, retryTransient, type AttemptResult, type RetryDeps } from '../retry.js';
import { addedRows, fileBytes, prepareDestination } from './sqlite-file.js';
import { formatMiB } from '../format/index.js';

export const gitBranchOptionsSchema = z.strictObject({
  /** Any URL or path `git fetch` and `git push` accept. */
  repo: z.string().min(1),
  branch: z.string().regex(/^[A-Za-z0-9._/-]+$/, 'must be a branch name').default('nightbench-history'),
  /** The SQLite file's path inside the branch. */
  path: z.string().regex(/^[^/].*[^/]$|^[^/]$/, 'must be a relative file path').default('history.sqlite'),
  /**
   * Each save replaces the branch with one commit (force-pushed with a lease on the commit we
   * read): the repository then holds one copy of the history instead of one per night.
   */
  squash: z.boolean().default(false),
  attempts: z.number().int().min(1).max(50).default(defaultRetryPolicy.attempts),
  retryDelayMs: z.number().int().min(0).default(defaultRetryPolicy.baseDelayMs),
});
export type GitBranchOptions = z.output<typeof gitBranchOptionsSchema>;

/** GitHub refuses files over 100 MB and warns above 50 MB; prune before the history gets there. */
const largeFileBytes = 50 * 2 ** 20;

const committer = ['-c', 'user.name=nightbench', '-c', 'user.email=nightbench@users.noreply.invalid'];

/**
 * The history as one SQLite file on a dedicated orphan branch of a git repository: needs
 * nothing beyond the repository the workflows already run in. A save fetches the branch, merges
 * our runs into its copy, commits on top of what it fetched and pushes; when the push is
 * rejected because the branch moved meanwhile, it fetches again and merges again.
 */
export class GitBranchBackend implements HistoryBackend {
  readonly description: string;

  constructor(
    private readonly options: GitBranchOptions,
    private readonly deps: RetryDeps,
  ) {
    this.description = `${options.path} on branch ${options.branch} of ${redactCredentials(options.repo)}`;
  }

  async fetch(file: string): Promise<FetchOutcome> {
    return retryTransient(retryPolicyOf(this.options), this.deps, () => this.inScratch(async (work) => {
      const base = await this.checkoutBranch(work);
      const stored = path.join(work, this.options.path);
      if (!base || !existsSync(stored)) return { found: false, revision: base };
      prepareDestination(file);
      copyFileSync(stored, file);
      return { found: true, revision: base, bytes: fileBytes(file) };
    }));
  }

  async save(file: string): Promise<SaveOutcome> {
    if (!existsSync(file)) throw new NightbenchError('remote', `cannot save ${file} to ${this.description}: no such file`);
    const { value, attempts } = await retry(`saving to ${this.description}`, retryPolicyOf(this.options), this.deps, (n) => this.inScratch((work) => this.trySave(work, file, n)));
    return { ...value, attempts };
  }

  private async trySave(work: string, file: string, attempt: number): Promise<AttemptResult<Omit<SaveOutcome, 'attempts'>>> {
    const base = await this.checkoutBranch(work);
    const stored = path.join(work, this.options.path);
    mkdirSync(path.dirname(stored), { recursive: true });
    const existed = existsSync(stored);
    const merged = mergeRunsInto(stored, file);
    const bytes = fileBytes(stored);
    // SQLite rewrites header bytes on every open for writing, so the file's bytes cannot tell
    // whether anything is new; the merge's row counts can.
    if (base && existed && addedRows(merged) === 0) return { kind: 'done', value: { changed: false, revision: base, merged, bytes } };
    if (bytes > largeFileBytes) this.deps.log.warn(`${this.description} is ${formatMiB(bytes)}: prune old samples (nightbench history prune --before DATE) before it reaches GitHub's 100 MB limit`);
    await this.run(['add', '--force', '--', this.options.path], work);
    const tree = (await this.run(['write-tree'], work)).trim();
    const parents = base && !this.options.squash ? ['-p', base] : [];
    const message = `nightbench history: merge ${path.basename(file)} (+${addedRows(merged)} rows${attempt > 1 ? `, try ${attempt}` : ''})`;
    const commit = (await this.run([...committer, 'commit-tree', tree, ...parents, '-m', message], work)).trim();
    // Without squash a moved branch makes the push a non-fast-forward; with squash the lease
    // on the commit we read does the same job for a force-push.
    const lease = this.options.squash ? [`--force-with-lease=refs/heads/${this.options.branch}:${base ?? ''}`] : [];
    try {
      await git(['push', '--quiet', ...lease, this.options.repo, `${commit}:refs/heads/${this.options.branch}`], work);
    } catch (error) {
      const now = await this.remoteHead(work);
      if (now !== base) return { kind: 'moved', detail: `branch ${this.options.branch} moved from ${short(base)} to ${short(now)} while we merged` };
      throw this.remoteError(error);
    }
    return { kind: 'done', value: { changed: true, revision: commit, merged, bytes } };
  }

  /** Fetches the branch's tip into a fresh repository at `work` and puts its files in place; undefined when the branch does not exist. */
  private async checkoutBranch(work: string): Promise<string | undefined> {
    await this.run(['init', '--quiet'], work);
    if (!(await this.remoteHead(work))) return undefined;
    await this.run(['fetch', '--quiet', '--depth=1', '--no-tags', this.options.repo, `refs/heads/${this.options.branch}`], work);
    const base = (await this.run(['rev-parse', 'FETCH_HEAD'], work)).trim();
    await this.run(['read-tree', base], work);
    if ((await this.run(['ls-tree', '--name-only', base, '--', this.options.path], work)).trim()) {
      await this.run(['checkout-index', '--force', '--', this.options.path], work);
    }
    return base;
  }

  private async remoteHead(work: string): Promise<string | undefined> {
    const out = await this.run(['ls-remote', this.options.repo, `refs/heads/${this.options.branch}`], work);
    return out.split('\t', 1)[0]?.trim() || undefined;
  }

  private async run(args: string[], cwd: string): Promise<string> {
    try {
      return await git(args, cwd);
    } catch (error) {
      throw this.remoteError(error);
    }
  }

  /** A git failure as the remote's; one that may pass (a 5xx, a dropped connection) stays marked so, and the save is tried again. */
  private remoteError(error: unknown): NightbenchError {
    const message = error instanceof Error ? error.message : String(error);
    const transient = error instanceof NightbenchError && error.transient;
    return new NightbenchError('remote', `remote history (${this.description}): ${redactCredentials(message)}`, { cause: error, transient });
  }

  private async inScratch<T>(body: (work: string) => Promise<T>): Promise<T> {
    const work = mkdtempSync(path.join(tmpdir(), 'nightbench-history-'));
    try {
      return await body(work);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

function short(sha: string | undefined): string {
  return sha ? sha.slice(0, 12) : '(none)';
}

export const gitBranchBackend = backendFactory('git', gitBranchOptionsSchema, (options, deps) => new GitBranchBackend(options, deps));
