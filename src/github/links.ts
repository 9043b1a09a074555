/**
 * Web links of an issue: commits, compare views, pull requests, profiles and history pages.
 * Pure: built from the config, with no request made.
 *
 * @module
 */
import { sitePaths } from '../report/paths.js';
import type { GitHubConfig } from '../config/github-section.js';

export interface Links {
  commit(repo: string, sha: string): string | undefined;
  compare(repo: string, from: string, to: string): string | undefined;
  pull(repo: string, number: number): string | undefined;
  /** The workload's page on the published site (`nightbench report`). */
  history(suite: string, workload: string): string | undefined;
}

/**
 * Links for target repositories mapped to GitHub in `github.targetRepositories`; a repository's
 * own `commitUrl` template ({sha}) serves for commits of one that is not on GitHub.
 */
export function buildLinks(github: Pick<GitHubConfig, 'webUrl' | 'targetRepositories' | 'siteUrl'>, commitUrls: Record<string, string | undefined> = {}): Links {
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
    history: (suite, workload) => (github.siteUrl ? new URL(sitePaths.workloadPage(suite, workload), github.siteUrl.replace(/\/?$/, '/')).href : undefined),
  };
}
