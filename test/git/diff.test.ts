import { describe, expect, it } from 'vitest';
import { clipRanges, mergeRanges, parseNumstat, parseTouchedLines } from '../../src/git/diff.js';

describe('parseNumstat', () => {
  it('reads line counts, and none for binary files', () => {
    expect(parseNumstat('3\t1\tsrc/a.py\n-\t-\tdata.bin\n0\t7\tpath with\ttab\n')).toEqual([
      { path: 'src/a.py', added: 3, removed: 1 },
      { path: 'data.bin' },
      { path: 'path with\ttab', added: 0, removed: 7 },
    ]);
  });
});

describe('parseTouchedLines', () => {
  const diff = [
    'diff --git a/pkg/core.py b/pkg/core.py',
    '--- a/pkg/core.py',
    '+++ b/pkg/core.py',
    '@@ -10,2 +10,3 @@ def f():',
    '-old',
    '-old',
    '+new',
    '@@ -40 +41 @@',
    '-x',
    '+y',
    '@@ -12,0 +14,2 @@',
    '+inserted',
    'diff --git a/pkg/new.py b/pkg/new.py',
    '--- /dev/null',
    '+++ b/pkg/new.py',
    '@@ -0,0 +1,2 @@',
    '+a',
  ].join('\n');

  it('widens hunks by the context, merges overlaps and skips added files', () => {
    expect(parseTouchedLines(diff, 3)).toEqual([{ path: 'pkg/core.py', ranges: [{ start: 7, end: 15 }, { start: 37, end: 43 }] }]);
  });

  it('never starts before line 1', () => {
    expect(parseTouchedLines('--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n', 5)).toEqual([{ path: 'x', ranges: [{ start: 1, end: 6 }] }]);
  });
});

describe('ranges', () => {
  it('merges adjacent ranges', () => {
    expect(mergeRanges([{ start: 5, end: 6 }, { start: 1, end: 4 }, { start: 9, end: 9 }])).toEqual([{ start: 1, end: 6 }, { start: 9, end: 9 }]);
  });

  it('clips to the file length and drops ranges past its end', () => {
    expect(clipRanges([{ start: 1, end: 4 }, { start: 8, end: 12 }, { start: 20, end: 22 }], 10)).toEqual([{ start: 1, end: 4 }, { start: 8, end: 10 }]);
  });
});
