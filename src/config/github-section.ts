/**
 * The `github` section of the config: where issues go, how people are mentioned, how the
 * client paces itself. Without `repository` (or without a token) issues are Markdown files.
 *
 * @module
 */
import { z } from 'zod';

/** A GitHub repository's "owner/name", as the config and every command's --repository take it. */
export const repositoryFullName = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

const fullName = z.string().regex(repositoryFullName, 'must be "owner/name"');

/** The login a workflow's GITHUB_TOKEN writes as. */
export const actionsBotLogin = 'github-actions[bot]';

export const mentionSchema = z.enum(['authors', 'authors-and-blame', 'none']);

export const githubSchema = z.strictObject({
  /** "owner/name" of the repository issues are opened in; without it issues are files only. */
  repository: fullName.optional(),
  /** The REST API root (GitHub Enterprise, or a local fake in tests). */
  apiUrl: z.url().default('https://api.github.com'),
  /** The web root, for compare, commit and pull request links. */
  webUrl: z.url().default('https://github.com'),
  /** The environment variable holding the token; its value is never logged. */
  tokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').default('GITHUB_TOKEN'),
  /** Labels of every issue, besides the suite's name. */
  labels: z.array(z.string().min(1)).default(['performance', 'regression']),
  /**
   * Who is @-mentioned, once, in the opening body: the range's commit authors (default), also
   * the authors of the code around the change, or nobody (names are still listed, unlinked).
   */
  mention: mentionSchema.default('authors'),
  /** A target repository's name (as in target.repositories) -> its "owner/name" on GitHub, for links and logins. */
  targetRepositories: z.record(z.string(), fullName).default({}),
  /** Where the static site (`nightbench report`) is published; issues link each workload's history page there. */
  siteUrl: z.url().optional(),
  /**
   * The login nightbench's issues and comments carry when the token cannot say who it is
   * (`GET /user` is refused to a workflow's GITHUB_TOKEN and to an app's installation token):
   * an app writes as "<app-slug>[bot]". Hidden markers are read only from this login's comments.
   */
  botLogin: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$/, 'must be a GitHub login, e.g. "my-app[bot]"').default(actionsBotLogin),
  /** Retries of a failed request (5xx, network) with growing waits; rate limits are waited out too. */
  retries: z.number().int().min(0).max(10).default(3),
  /**
   * Milliseconds per "second" of waiting: the unit of the retry backoff and of a rate limit's
   * Retry-After. 1000 is real time; tests shrink it.
   */
  waitUnitMs: z.number().int().min(0).max(1000).default(1000),
  /**
   * Milliseconds one request may take before it counts as unanswered (and is retried): a GitHub
   * that accepts connections and never answers would otherwise hold a command for minutes each.
   */
  requestTimeoutMs: z.number().int().min(1).default(60_000),
  /** Least time between writes; GitHub asks for one second, three for writes that notify people. */
  writeSpacingMs: z.number().int().min(0).default(1000),
  notifySpacingMs: z.number().int().min(0).default(3000),
  /**
   * What an improvement episode gets on GitHub. `off` (the default): nothing; `detect`, the
   * summary and the pages show it. `comment`: a comment on the issue of the latest earlier
   * regression of the same series, open or closed ("this may be the fix"); without such an issue
   * nothing is posted and a log line says so. `issue`: an issue of its own, like a regression.
   */
  improvements: z.enum(['off', 'comment', 'issue']).default('off'),
  /**
   * Before an issue opens, rerun its largest change, last good against first bad, as an
   * interleaved A/B on the episode's cluster (`rerun`); one that does not reproduce is kept as
   * "unconfirmed" on the pages and in `detect`, never filed. `off` (the default) files at once.
   * Costs about 12 repeats of the workload per opening (bench/confirm-quality.ts).
   */
  confirm: z.enum(['off', 'rerun']).default('off'),
});

/** The validated `github` section. */
export type GitHubConfig = z.output<typeof githubSchema>;
export type MentionPolicy = z.output<typeof mentionSchema>;
