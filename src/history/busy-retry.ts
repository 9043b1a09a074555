/**
 * Another writer holding the history database (a `db merge`, a `history save` copying it, a
 * prune) is a wait, not a failure: a write that meets SQLITE_BUSY after SQLite's own busy
 * timeout is tried again with growing, jittered waits until a budget is spent. Writes are
 * synchronous (better-sqlite3), so the waits are too; they only happen while another process
 * holds the lock.
 *
 * @module
 */
import { backoffDelayMs } from '../backoff.js';

export interface BusyRetryPolicy {
  /** The longest wait in all before the lock counts as held for good. */
  budgetMs: number;
  /** The first wait's ceiling; it doubles with each try up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const defaultBusyRetry: BusyRetryPolicy = { budgetMs: 120_000, firstDelayMs: 50, maxDelayMs: 5_000 };

/** Hears of each wait before it is slept: how long, which attempt, and the budget it draws on. */
export type BusyWaitListener = (waitMs: number, attempt: number, policy: BusyRetryPolicy) => void;

/** Whether SQLite said the database is locked by another connection. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED');
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number) => void Atomics.wait(sleeper, 0, 0, ms);

/**
 * Runs `body`, again after a wait whenever it fails busy, until it succeeds or the budget is
 * spent (then the last error is thrown). `onWait` hears of each wait, for a log line. The budget
 * is wall time, the tries included: each try spends SQLite's own busy timeout before it fails, and
 * counting only the waits between tries let a write wait about twice the budget it announced.
 */
export function retryWhileBusy<T>(body: () => T, policy: BusyRetryPolicy = defaultBusyRetry, onWait: BusyWaitListener = () => undefined, sleep = sleepSync, now = () => performance.now()): T {
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      return body();
    } catch (error) {
      const spent = now() - started;
      if (!isBusy(error) || spent >= policy.budgetMs) throw error;
      const backoff = backoffDelayMs(attempt, { baseDelayMs: policy.firstDelayMs, maxDelayMs: policy.maxDelayMs }, Math.random);
      const wait = Math.min(policy.budgetMs - spent, Math.max(1, backoff));
      onWait(wait, attempt, policy);
      sleep(wait);
    }
  }
}
