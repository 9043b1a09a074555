/**
 * The one GitHub client: Octokit with the retry and throttling plugins, composed once. A 502 or
 * a dropped connection is retried with growing waits; a rate-limit answer is waited out (its
 * Retry-After or reset time) and retried, up to the same number of times.
 *
 * @module
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { NightbenchError } from '../../errors.js';
import type { Log } from '../../log.js';
import type { GitHubConfig } from '../../config/github-section.js';
import { setFallbackLogin } from './identity.js';

/** Octokit with retry and throttling; its REST methods and `paginate` are what nightbench uses. */
export const NightbenchOctokit = Octokit.plugin(retry, throttling);
export type GitHubClient = InstanceType<typeof NightbenchOctokit>;

export type ClientSettings = Pick<GitHubConfig, 'apiUrl' | 'retries' | 'waitUnitMs' | 'requestTimeoutMs' | 'writeSpacingMs' | 'notifySpacingMs'> & Partial<Pick<GitHubConfig, 'botLogin'>>;

/**
 * A client for `settings.apiUrl` authenticated with `token`. Each client gets its own limiter
 * groups: the plugin's default groups are shared by every instance in the process.
 */
export function createGitHubClient(settings: ClientSettings, token: string, log: Log): GitHubClient {
  const group = (id: string, minTime: number) => new Bottleneck.Group({ id: `nightbench-${id}`, maxConcurrent: 1, minTime });
  const wantRetry = (kind: string) => (retryAfter: number, options: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
    log.warn(`GitHub ${kind} on ${options.method} ${options.url}: waiting ${retryAfter}s (attempt ${retryCount + 1} of ${settings.retries})`);
    return retryCount < settings.retries;
  };
  const client = new NightbenchOctokit({
    auth: token,
    baseUrl: settings.apiUrl.replace(/\/$/, ''),
    userAgent: 'nightbench',
    // Octokit logs to the console by default; nightbench's progress goes through its own Log.
    log: { debug: () => {}, info: () => {}, warn: (message: string) => log.debug(message), error: (message: string) => log.debug(message) },
    // Each request's own time limit (Octokit takes one signal for every request), beside any signal it already has.
    request: {
      fetch: (url: string | URL, init: RequestInit = {}) => {
        const timeout = AbortSignal.timeout(settings.requestTimeoutMs);
        return fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
      },
    },
    retry: { retries: settings.retries, retryAfterBaseValue: settings.waitUnitMs },
    throttle: {
      id: 'nightbench',
      retryAfterBaseValue: settings.waitUnitMs,
      write: group('write', settings.writeSpacingMs),
      notifications: group('notifications', settings.notifySpacingMs),
      onRateLimit: wantRetry('rate limit'),
      onSecondaryRateLimit: wantRetry('secondary rate limit'),
    },
  });
  if (settings.botLogin) setFallbackLogin(client, settings.botLogin);
  return client;
}

/**
 * A client authenticated with the token in the variable `settings.tokenEnv` names, for a command
 * that cannot do without GitHub (`who` names it): no token is a usage error saying where to put one.
 */
export function gitHubClientFromEnv(settings: ClientSettings & Pick<GitHubConfig, 'tokenEnv'>, who: string, log: Log): GitHubClient {
  const token = process.env[settings.tokenEnv];
  if (!token) throw new NightbenchError('usage', `${who} talks to GitHub: set a token in ${settings.tokenEnv}`);
  return createGitHubClient(settings, token, log);
}
