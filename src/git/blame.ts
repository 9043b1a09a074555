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
 * and emails through `.mailmap`; what it leaves apart is still one person when it shares a name
 * (a work and a home address) or an address (a name changed: on dask, "Jim Crist" and
 * "Jim Crist-Harif" under one noreply address), so both join. The name shown is the one with the
 * most lines.
 */
export function parseBlameAuthors(porcelain: string): BlameAuthor[] {
  const identities: { name: string; email: string; lines: number; sha: string }[] = [];
  const byIdentity = new Map<string, number>();
  let name = '';
  let sha = '';
  for (const line of porcelain.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
    if (header) sha = header[1]!;
    else if (line.startsWith('author ')) name = line.slice('author '.length);
    else if (line.startsWith('author-mail ')) {
      const email = line.slice('author-mail '.length).replace(/^<|>$/g, '');
      const key = `${name}\n${email}`;
      const known = byIdentity.get(key);
      if (known !== undefined) identities[known]!.lines += 1;
      else byIdentity.set(key, identities.push({ name, email, lines: 1, sha }) - 1);
    }
  }
  return people(identities).sort((a, b) => b.lines - a.lines || a.name.localeCompare(b.name));
}

/** Joins identities that share a name or an address (transitively), keeping the name with the most lines. */
function people(identities: readonly BlameAuthor[]): BlameAuthor[] {
  const parent = identities.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  identities.forEach((identity, i) => {
    const keys = [`name:${identity.name.trim().replace(/\s+/g, ' ').toLowerCase()}`, `email:${identity.email.toLowerCase()}`].filter((key) => !/^(name|email):$/.test(key));
    for (const key of keys) {
      const first = firstWith.get(key);
      if (first === undefined) firstWith.set(key, i);
      else parent[root(i)] = root(first);
    }
  });
  const byPerson = new Map<number, { best: BlameAuthor; lines: number }>();
  identities.forEach((identity, i) => {
    const person = byPerson.get(root(i));
    if (!person) byPerson.set(root(i), { best: identity, lines: identity.lines });
    else {
      person.lines += identity.lines;
      if (identity.lines > person.best.lines) person.best = identity;
    }
  });
  return [...byPerson.values()].map(({ best, lines }) => ({ ...best, lines }));
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
