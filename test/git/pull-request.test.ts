import { describe, expect, it } from 'vitest';
import { parsePullRequestNumber } from '../../src/git/pull-request.js';

describe('parsePullRequestNumber', () => {
  it.each([
    ['Speed up shuffle (#11234)', 11234],
    ['Speed up shuffle (#11234)  ', 11234],
    ['Merge pull request #812 from someone/branch', 812],
    ['Fix #12 in the middle of a subject', undefined],
    ['Revert "Speed up (#5)" for now', undefined],
    ['No number at all', undefined],
    ['Merge branch main into feature', undefined],
  ])('%s -> %s', (subject, expected) => {
    expect(parsePullRequestNumber(subject)).toBe(expected);
  });
});
