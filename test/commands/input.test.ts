import { describe, expect, it } from 'vitest';
import { checkNight, checkRevision } from '../../src/commands/input.js';

const now = new Date('2026-12-04T23:30:00Z');

describe('checkNight', () => {
  it.each(['2026-12-04', '2026-12-05', '2024-02-29', '1999-01-01'])('accepts %s', (night) => {
    expect(checkNight(night, '--night', now)).toBe(night);
  });

  it.each([
    ['2026-02-30', /calendar date/],
    ['2025-02-29', /calendar date/],
    ['2026-1-01', /calendar date/],
    ['tomorrow', /calendar date/],
    ['2026-12-06', /in the future: the latest night allowed is tomorrow, 2026-12-05/],
    ['2099-01-01', /in the future/],
  ])('refuses %s', (night, message) => {
    expect(() => checkNight(night, '--night', now)).toThrow(message);
  });
});

describe('checkRevision', () => {
  it('passes shas, tags and branches through', () => {
    for (const revision of ['f00dfac', 'v1.0', 'main', 'feature/x-y']) expect(checkRevision(revision, '--commit')).toBe(revision);
  });

  it.each(['--upload-pack=touch x', '-n', '-'])('refuses %s, which git would read as an option', (revision) => {
    expect(() => checkRevision(revision, '--good')).toThrow(/--good must be a commit, tag or branch.*cannot start with "-"/);
  });
});
