/**
 * Where a bisect's comment goes: the episode's issue on GitHub (through the Octokit client of
 * the issues, with the culprit author's login looked up), or a Markdown file beside the issue
 * files when there is no issue or no token.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { createGitHubClient } from '../issues/github/client.js';
import { gitHubTracker } from '../issues/github/tracker.js';
import { configLinks } from '../issues/links.js';
import { resolvePeople } from '../issues/resolve-people.js';
import type { Log } from '../log.js';
import { renderBisectComment } from './render.js';
import type { BisectReport } from './run.js';

export interface PublishedBisect {
  /** "acme/perf#12" or the file written. */
  where: string;
  body: string;
}

export async function publishBisect(report: BisectReport, options: { loaded: LoadedConfig; env: Record<string, string | undefined>; unit: string | null; log: Log }): Promise<PublishedBisect> {
  const { config } = options.loaded;
  const github = config.github;
  const links = configLinks(config);
  const token = github.repository ? options.env[github.tokenEnv] : undefined;
  const issueNumber = report.request.issueNumber;
  if (!github.repository || !token || issueNumber === undefined) {
    const body = renderBisectComment(report, { links, logins: {}, unit: options.unit });
    const file = writeCommentFile(options.loaded, report.id, body);
    const why = !github.repository ? 'no github.repository' : !token ? `${github.tokenEnv} is not set` : 'the bisect has no issue';
    options.log.info(`${why}: the result is in ${file}`);
    return { where: file, body };
  }
  const client = createGitHubClient(github, token, options.log);
  const changes = report.states.flatMap((s) => (s.change ? [s.change] : []));
  const named = new Set(namedShas(report));
  const ranges = [...new Set(changes.map((c) => c.repo))].map((repo) => ({
    repo,
    from: report.request.good[repo]!,
    to: report.request.bad[repo]!,
    commits: changes.filter((c) => c.repo === repo && named.has(c.sha)).map((c) => ({ sha: c.sha, subject: c.subject, authorName: c.authorName, authorEmail: c.authorEmail, authoredAt: c.committedAt })),
    commitCount: 0,
    files: [],
    blame: [],
  }));
  const people = await resolvePeople(client, github.targetRepositories, ranges, options.log);
  const body = renderBisectComment(report, { links, logins: people.logins, unit: options.unit });
  const tracker = gitHubTracker(client, github.repository, github.labels);
  const ref = `${github.repository}#${issueNumber}`;
  try {
    await tracker.comment({ fingerprint: '', number: issueNumber, ref, state: 'open', closedByNightbench: false, reportedNights: [], notedImprovements: [] }, body);
  } catch (error) {
    // Hours of cluster time went into this answer: GitHub failing must not lose it.
    options.log.warn(`commenting on ${ref} failed: the result is in ${writeCommentFile(options.loaded, report.id, body)}`);
    throw error;
  }
  options.log.info(`commented on ${ref}`);
  return { where: ref, body };
}

/** The comment as a Markdown file beside the issue files; returns its path. */
function writeCommentFile(loaded: LoadedConfig, bisectId: string, body: string): string {
  const file = path.resolve(loaded.baseDir, loaded.config.reports.dir, 'issues', `bisect-${bisectId}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${body}\n`);
  return file;
}

/** The commits the comment names: the culprit, or the spread's or ambiguous range's commits. */
function namedShas(report: BisectReport): string[] {
  const outcome = report.result.outcome;
  const range = outcome.kind === 'culprit' ? [outcome.state, outcome.state] : outcome.kind === 'not-reproduced' ? [1, 0] : [outcome.from, outcome.to];
  return report.states.slice(range[0], range[1]! + 1).flatMap((s) => (s.change ? [s.change.sha] : []));
}
