/**
 * Parsing of `git diff --numstat` and `git diff -U0` output: pure, so the rules about renames,
 * binary files and insertion hunks are tested without a repository.
 */

/** A file the range changed, with its line counts (undefined for binary files). */
export interface FileChange {
  path: string;
  added?: number;
  removed?: number;
}

/** Lines of the file as it was before the range (1-based, inclusive) that the range touched. */
export interface TouchedLines {
  /** The path before the range; files the range added have no earlier lines and are left out. */
  path: string;
  ranges: LineRange[];
}

export interface LineRange {
  start: number;
  end: number;
}

/** Parses `git diff --numstat` output: "added<TAB>removed<TAB>path" per line, "-" for binary. */
export function parseNumstat(output: string): FileChange[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [added, removed, ...rest] = line.split('\t');
      const path = rest.join('\t');
      return added === '-' ? { path } : { path, added: Number(added), removed: Number(removed) };
    });
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * The old-side lines of each hunk of a `git diff -U0` (renames off), widened by `context` lines
 * on both sides: the code around a change is what its reviewers know. An insertion hunk
 * ("-12,0") touches no old line, so the lines around line 12 stand for it.
 */
export function parseTouchedLines(diff: string, context: number): TouchedLines[] {
  const files: TouchedLines[] = [];
  let current: TouchedLines | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ')) {
      const old = line.slice(4);
      current = old === '/dev/null' ? undefined : { path: old.replace(/^a\//, ''), ranges: [] };
      if (current) files.push(current);
      continue;
    }
    const match = hunkHeader.exec(line);
    if (!match || !current) continue;
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    const last = start + Math.max(count, 1) - 1;
    current.ranges.push({ start: Math.max(1, start - context), end: last + context });
  }
  return files.map((file) => ({ ...file, ranges: mergeRanges(file.ranges) })).filter((file) => file.ranges.length > 0);
}

/** Sorted, overlapping or adjacent ranges joined: git blame takes each line once. */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: LineRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** Ranges cut to a file of `lineCount` lines; ranges wholly past its end are dropped. */
export function clipRanges(ranges: readonly LineRange[], lineCount: number): LineRange[] {
  return ranges.filter((range) => range.start <= lineCount).map((range) => ({ start: range.start, end: Math.min(range.end, lineCount) }));
}
