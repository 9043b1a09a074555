import { describe, expect, it } from 'vitest';
import { parseBlameAuthors } from '../../src/git/blame.js';

/** One line of `git blame --line-porcelain` output, as git prints it (only the fields the parser reads). */
const line = (sha: string, name: string, email: string, n: number) =>
  [`${sha.repeat(40).slice(0, 40)} ${n} ${n} 1`, `author ${name}`, `author-mail <${email}>`, 'author-time 1700000000', `\tcode ${n}`].join('\n');

describe('blame authors', () => {
  it('are one person across a renamed name under one address and two addresses under one name', () => {
    const porcelain = [
      line('a', 'Jim Crist', 'crist042@umn.edu', 1),
      line('a', 'Jim Crist', 'crist042@umn.edu', 2),
      line('b', 'Jim Crist', 'jcrist@users.noreply.github.com', 3),
      line('c', 'Jim Crist-Harif', 'jcrist@users.noreply.github.com', 4),
      line('d', 'Jim Crist-Harif', 'jcristharif@gmail.com', 5),
      line('e', 'Ada Lovelace', 'ada@example.org', 6),
    ].join('\n');
    const authors = parseBlameAuthors(porcelain);
    expect(authors.map((a) => [a.name, a.lines])).toEqual([['Jim Crist', 5], ['Ada Lovelace', 1]]);
  });

  it('keeps different people with different names and addresses apart', () => {
    const porcelain = [line('a', 'Ada Lovelace', 'ada@example.org', 1), line('b', 'Grace Hopper', 'grace@example.org', 2), line('b', 'Grace Hopper', 'grace@example.org', 3)].join('\n');
    expect(parseBlameAuthors(porcelain).map((a) => [a.name, a.lines])).toEqual([['Grace Hopper', 2], ['Ada Lovelace', 1]]);
  });
});
