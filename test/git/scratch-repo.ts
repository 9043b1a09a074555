/**
 * Throw-away git repositories for tests: commits with set authors and dates, so ranges, blame
 * and issue text are the same on every run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Author {
  name: string;
  email: string;
}

export interface ScratchRepo {
  dir: string;
  /** Writes the files (path -> content) and commits them; returns the new sha. */
  commit(files: Record<string, string>, message: string, author: Author, date: string): string;
  git(...args: string[]): string;
  remove(): void;
}

export function gitIn(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, ...env } }).trim();
}

export function createScratchRepo(prefix = 'nightbench-git-'): ScratchRepo {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  gitIn(dir, ['init', '--quiet', '--initial-branch=main']);
  return {
    dir,
    commit(files, message, author, date) {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), content);
      }
      gitIn(dir, ['add', '--all']);
      gitIn(dir, ['commit', '--quiet', '-m', message], {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
        GIT_COMMITTER_DATE: date,
      });
      return gitIn(dir, ['rev-parse', 'HEAD']);
    },
    git: (...args) => gitIn(dir, args),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `count` numbered lines, so a test can say which lines a commit touches. */
export function numberedLines(count: number, label = 'line'): string {
  return Array.from({ length: count }, (_, i) => `${label} ${i + 1}\n`).join('');
}
