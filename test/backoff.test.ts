import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../src/backoff.js';

const policy = { baseDelayMs: 1000, maxDelayMs: 5000 };

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
