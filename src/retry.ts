import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { NightbenchError } from './errors.js';
import type { Log } from './log.js';

/** The waits between tries (src/backoff.ts), and how many tries in all. */
export interface RetryPolicy extends BackoffPolicy {
  /** Tries in all, the first included. */
  attempts: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 6, baseDelayMs: 2000, maxDelayMs: 30_000 };

/** The default policy with the tries and first wait a remote's options (`--attempts`, `--retry-delay`) set. */
export function retryPolicyOf(options: { attempts: number; retryDelayMs: number }): RetryPolicy {
  return { ...defaultRetryPolicy, attempts: options.attempts, baseDelayMs: options.retryDelayMs };
}

/** What one try of a conditional write found: it wrote, or the stored copy had moved under it. */
export type AttemptResult<T> = { kind: 'done'; value: T } | { kind: 'moved'; detail: string };

export interface RetryDeps {
  log: Log;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * Repeats `attempt` while the stored copy moved between our read and our write (another
 * night's job saved first) or the try failed in a way that passes (a {@link NightbenchError}
 * marked transient: a 5xx, a dropped connection); any other failure propagates at once. A
 * transient failure that outlasts the tries propagates as it was, its tries counted.
 */
export async function retry<T>(what: string, policy: RetryPolicy, deps: RetryDeps, attempt: (n: number) => Promise<AttemptResult<T>>): Promise<{ value: T; attempts: number }> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = deps.random ?? Math.random;
  for (let n = 1; ; n++) {
    // The failure's own message names the remote already; a moved write's detail does not.
    let why: string;
    try {
      const result = await attempt(n);
      if (result.kind === 'done') return { value: result.value, attempts: n };
      if (n >= policy.attempts) {
        throw new NightbenchError('remote', `${what}: gave up after ${n} tries, the stored history kept moving (${result.detail})`);
      }
      why = `${what}: ${result.detail}; reading it again and retrying`;
    } catch (error) {
      if (!(error instanceof NightbenchError && error.transient)) throw error;
      if (n >= policy.attempts) {
        throw new NightbenchError(error.kind, `${error.message} (still failing after ${n} tries)`, { cause: error, transient: true });
      }
      why = `${error.message}; trying again`;
    }
    const delay = backoffDelayMs(n, policy, random);
    deps.log.warn(`${why} in ${(delay / 1000).toFixed(1)} s (try ${n + 1} of ${policy.attempts})`);
    await sleep(delay);
  }
}

/** {@link retry} for a step that has no conditional write: only its transient failures are tried again. */
export async function retryTransient<T>(policy: RetryPolicy, deps: RetryDeps, body: () => Promise<T>): Promise<T> {
  // `what` names a moved write in retry's messages; a step whose tries are always done never has one.
  return (await retry('', policy, deps, async () => ({ kind: 'done', value: await body() }))).value;
}
