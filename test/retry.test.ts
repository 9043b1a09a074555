import { describe, expect, it } from 'vitest';
import { NightbenchError } from '../src/errors.js';
import { silentLog, type Log } from '../src/log.js';
import { retry, retryTransient } from '../src/retry.js';

const policy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 5000 };

/** A log that keeps its warnings, and a sleep that only notes how long it was asked to wait. */
function recording() {
  const warnings: string[] = [];
  const waits: number[] = [];
  const log: Log = { ...silentLog, warn: (message: string) => void warnings.push(message) };
  return { warnings, waits, deps: { log, random: () => 0, sleep: async (ms: number) => void waits.push(ms) } };
}

const outage = () => new NightbenchError('remote', 'remote history (h): git push failed: error: RPC failed; HTTP 502', { transient: true });

describe('retry', () => {
  it('retries a moved write with growing waits and returns the tries it took', async () => {
    const { waits, deps } = recording();
    let calls = 0;
    const result = await retry('saving', policy, deps, async (n) => {
      calls += 1;
      return n < 3 ? { kind: 'moved', detail: 'moved' } : { kind: 'done', value: 'ok' };
    });
    expect(result).toEqual({ value: 'ok', attempts: 3 });
    expect(calls).toBe(3);
    expect(waits).toEqual([500, 1000]);
  });

  it('gives up after the last try', async () => {
    await expect(retry('saving', policy, { log: silentLog, sleep: async () => {} }, async () => ({ kind: 'moved', detail: 'branch moved' }))).rejects.toThrow(
      'saving: gave up after 4 tries, the stored history kept moving (branch moved)',
    );
  });

  it('retries a failure marked transient, saying why on each wait', async () => {
    const { warnings, waits, deps } = recording();
    const result = await retry('saving', policy, deps, async (n) => {
      if (n < 3) throw outage();
      return { kind: 'done', value: 'ok' };
    });
    expect(result).toEqual({ value: 'ok', attempts: 3 });
    expect(waits).toEqual([500, 1000]);
    expect(warnings).toEqual([
      'remote history (h): git push failed: error: RPC failed; HTTP 502; trying again in 0.5 s (try 2 of 4)',
      'remote history (h): git push failed: error: RPC failed; HTTP 502; trying again in 1.0 s (try 3 of 4)',
    ]);
  });

  it('ends a transient failure that outlasts the tries with its own kind and message, its tries counted', async () => {
    const error = await retryTransient(policy, { log: silentLog, sleep: async () => {} }, async () => {
      throw outage();
    }).then(() => undefined, (e: unknown) => e as NightbenchError);
    expect(error).toBeInstanceOf(NightbenchError);
    expect(error?.kind).toBe('remote');
    expect(error?.message).toBe('remote history (h): git push failed: error: RPC failed; HTTP 502 (still failing after 4 tries)');
  });

  it('lets any other failure through at once, a NightbenchError not marked transient included', async () => {
    for (const failure of [new Error('permission denied'), new NightbenchError('remote', 'remote history (h): Authentication failed')]) {
      let calls = 0;
      await expect(
        retry('saving', policy, { log: silentLog, sleep: async () => {} }, async () => {
          calls += 1;
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(calls).toBe(1);
    }
  });

  it('returns what a step without a conditional write gave, tried again after a transient failure', async () => {
    const { deps } = recording();
    let calls = 0;
    expect(
      await retryTransient(policy, deps, async () => {
        calls += 1;
        if (calls === 1) throw outage();
        return 'bytes';
      }),
    ).toBe('bytes');
    expect(calls).toBe(2);
  });
});
