import { git } from './git.js';
import { clipRanges, type TouchedLines } from './diff.js';

/** Someone who wrote lines around the range's changes, before the range. */
export interface BlameAuthor {
  name: string;
  email: string;
  lines: number;
  /** One commit of theirs among those lines: enough to look up their GitHub login. */
  sha: string;
}

/** Who wrote the code a range touched, for one file, most lines first. */
export interface FileBlame {
  path: string;
  authors: BlameAuthor[];
}

/**
 * Counts lines per person in `git blame --line-porcelain` output. git has already mapped names
 * and emails through `.mailmap`; what it leaves apart under one name (a person's work and home
 * address, unmapped) is one person too, so lines are counted by name.
 */
export function parseBlameAuthors(porcelain: string): BlameAuthor[] {
  const byName = new Map<string, BlameAuthor>();
  let name = '';
  let sha = '';
  for (const line of porcelain.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
    if (header) sha = header[1]!;
    else if (line.startsWith('author ')) name = line.slice('author '.length);
    else if (line.startsWith('author-mail ')) {
      const email = line.slice('author-mail '.length).replace(/^<|>$/g, '');
      const key = name.trim().replace(/\s+/g, ' ') || email;
      const known = byName.get(key);
      if (known) known.lines += 1;
      else byName.set(key, { name, email, lines: 1, sha });
    }
  }
  return [...byName.values()].sort((a, b) => b.lines - a.lines || a.name.localeCompare(b.name));
}

/**
 * Blames the touched lines of one file at `revision` (the last good commit: the code as it was
 * before the range), so the issue can name who knows that code.
 */
export async function blameTouchedLines(dir: string, revision: string, touched: TouchedLines): Promise<FileBlame> {
  const lineCount = countLines(await git(['show', `${revision}:${touched.path}`], dir));
  const ranges = clipRanges(touched.ranges, lineCount);
  if (ranges.length === 0) return { path: touched.path, authors: [] };
  const porcelain = await git(['blame', '--line-porcelain', ...ranges.flatMap((r) => ['-L', `${r.start},${r.end}`]), revision, '--', touched.path], dir);
  return { path: touched.path, authors: parseBlameAuthors(porcelain) };
}

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
