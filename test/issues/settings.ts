/** GitHub settings for tests: real retry and pacing logic, with waits shrunk to milliseconds. */
import { githubSchema, type GitHubConfig } from '../../src/config/github-section.js';

export function fastGitHubConfig(apiUrl: string, overrides: Partial<GitHubConfig> = {}): GitHubConfig {
  return { ...githubSchema.parse({ repository: 'acme/perf', apiUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 }), ...overrides };
}
