import { describe, expect, it } from 'vitest';
import { retryWhileBusy } from '../../src/history/busy-retry.js';

/** SQLite's own wait inside each try before it answers busy (the history's busy timeout). */
const busyTimeoutMs = 5_000;

describe('retryWhileBusy', () => {
  it('spends its budget in wall time, the tries included, and gives the last busy error', () => {
    let clock = 0;
    let tries = 0;
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const body = (): never => {
      tries++;
      clock += busyTimeoutMs;
      throw busy;
    };
    const policy = { budgetMs: 120_000, firstDelayMs: 50, maxDelayMs: 5_000 };
    expect(() => retryWhileBusy(body, policy, () => undefined, (ms) => void (clock += ms), () => clock)).toThrow(busy);
    // The announced 120 s, give or take the last try; counting only the sleeps took about 4 minutes.
    expect(clock).toBeGreaterThanOrEqual(policy.budgetMs);
    expect(clock).toBeLessThanOrEqual(policy.budgetMs + busyTimeoutMs);
    expect(tries).toBeGreaterThan(1);
  });

  it('returns what the body gives once the lock is free, and throws anything but busy at once', () => {
    let tries = 0;
    const freeOnThird = () => {
      if (++tries < 3) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return 'written';
    };
    expect(retryWhileBusy(freeOnThird, undefined, () => undefined, () => undefined)).toBe('written');
    expect(tries).toBe(3);
    let failures = 0;
    const broken = () => {
      failures++;
      throw new Error('no such table');
    };
    expect(() => retryWhileBusy(broken)).toThrow('no such table');
    expect(failures).toBe(1);
  });
});
