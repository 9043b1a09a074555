/**
 * The wait before trying again, shared by the remote retries (src/retry.ts) and the history's
 * waits for another writer's lock (src/history/busy-retry.ts), which sit on one floor and so
 * cannot import each other.
 *
 * @module
 */

/** The first wait's ceiling, which doubles with each retry up to `maxDelayMs`. */
export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1-based): exponential backoff, each wait drawn between
 * half its ceiling and the ceiling, so two writers that collided do not collide again on the same
 * beat. `random` returns [0, 1). Remote retries and the history's busy waits both draw from it.
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
