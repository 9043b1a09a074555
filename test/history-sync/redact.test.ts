import { describe, expect, it } from 'vitest';
import { redactCredentials } from '../../src/history-sync/redact.js';

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
