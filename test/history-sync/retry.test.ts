import { describe, expect, it } from 'vitest';
import { silentLog } from '../../src/log.js';
import { backoffDelayMs, retryWhileMoved } from '../../src/history-sync/retry.js';
import { redactCredentials } from '../../src/history-sync/redact.js';

const policy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 5000 };

describe('backoffDelayMs', () => {
  it.each([
    { retry: 1, random: 0, expected: 500 },
    { retry: 1, random: 0.999999, expected: 1000 },
    { retry: 2, random: 0.5, expected: 1500 },
    { retry: 3, random: 0, expected: 2000 },
    { retry: 10, random: 0.999999, expected: 5000 },
  ])('retry $retry with random $random waits $expected ms', ({ retry, random, expected }) => {
    expect(backoffDelayMs(retry, policy, () => random)).toBe(expected);
  });
});

describe('retryWhileMoved', () => {
  it('retries a moved write with growing waits and returns the tries it took', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await retryWhileMoved('saving', policy, { log: silentLog, random: () => 0, sleep: async (ms) => void waits.push(ms) }, async (n) => {
      calls += 1;
      return n < 3 ? { kind: 'moved', detail: 'moved' } : { kind: 'done', value: 'ok' };
    });
    expect(result).toEqual({ value: 'ok', attempts: 3 });
    expect(calls).toBe(3);
    expect(waits).toEqual([500, 1000]);
  });

  it('gives up after the last try', async () => {
    await expect(retryWhileMoved('saving', policy, { log: silentLog, sleep: async () => {} }, async () => ({ kind: 'moved', detail: 'branch moved' }))).rejects.toThrow(
      'saving: gave up after 4 tries, the stored history kept moving (branch moved)',
    );
  });

  it('lets any other failure through at once', async () => {
    let calls = 0;
    await expect(
      retryWhileMoved('saving', policy, { log: silentLog, sleep: async () => {} }, async () => {
        calls += 1;
        throw new Error('permission denied');
      }),
    ).rejects.toThrow('permission denied');
    expect(calls).toBe(1);
  });
});

describe('redactCredentials', () => {
  it.each([
    ['https://x-access-token:ghs_abc@github.com/o/r.git', 'https://***@github.com/o/r.git'],
    ['fatal: unable to access \'https://tok@host/r/\': 403', "fatal: unable to access 'https://***@host/r/': 403"],
    ['https://github.com/o/r.git', 'https://github.com/o/r.git'],
    ['/srv/history.git and git@host:o/r', '/srv/history.git and git@host:o/r'],
  ])('%s', (input, expected) => {
    expect(redactCredentials(input)).toBe(expected);
  });
});
