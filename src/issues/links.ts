/**
 * Web links of an issue: commits, compare views, pull requests, profiles and history pages.
 * Pure: built from the config, with no request made.
 *
 * @module
 */
import type { GitHubConfig } from '../config/github-section.js';
import type { Config } from '../config/schema.js';
import { sitePaths } from '../report/paths.js';

export interface Links {
  commit(repo: string, sha: string): string | undefined;
  compare(repo: string, from: string, to: string): string | undefined;
  pull(repo: string, number: number): string | undefined;
  /** The workload's page on the published site (`nightbench report`). */
  history(suite: string, workload: string): string | undefined;
  /** A regression issue of `github.repository`. */
  issue(number: number): string | undefined;
}

/** The links of a whole config: its github section plus the commit URL templates of a git target's repositories. */
export function configLinks(config: Pick<Config, 'github' | 'target'>): Links {
  const target = config.target;
  const commitUrls = target.kind === 'git' ? Object.fromEntries(target.repositories.map((r) => [r.name, r.commitUrl])) : {};
  return buildLinks(config.github, commitUrls);
}

/**
 * Links for target repositories mapped to GitHub in `github.targetRepositories`; a repository's
 * own `commitUrl` template ({sha}) serves for commits of one that is not on GitHub.
 */
export function buildLinks(github: Pick<GitHubConfig, 'webUrl' | 'targetRepositories' | 'siteUrl' | 'repository'>, commitUrls: Record<string, string | undefined> = {}): Links {
  const web = github.webUrl.replace(/\/$/, '');
  const onGitHub = (repo: string) => github.targetRepositories[repo];
  return {
    commit: (repo, sha) => {
      const fullName = onGitHub(repo);
      if (fullName) return `${web}/${fullName}/commit/${sha}`;
      return commitUrls[repo]?.replaceAll('{sha}', sha);
    },
    compare: (repo, from, to) => {
      const fullName = onGitHub(repo);
      return fullName ? `${web}/${fullName}/compare/${from}...${to}` : undefined;
    },
    pull: (repo, number) => {
      const fullName = onGitHub(repo);
      return fullName ? `${web}/${fullName}/pull/${number}` : undefined;
    },
    issue: (number) => (github.repository ? `${web}/${github.repository}/issues/${number}` : undefined),
    history: (suite, workload) => (github.siteUrl ? new URL(sitePaths.workloadPage(suite, workload), github.siteUrl.replace(/\/?$/, '/')).href : undefined),
  };
}
