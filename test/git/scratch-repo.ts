/**
 * Throw-away git repositories for tests: commits with set authors and dates, so ranges, blame
 * and issue text are the same on every run. Each is a temporary folder (test/helpers/temp-dir.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';

export interface Author {
  name: string;
  email: string;
}

export interface ScratchRepo {
  dir: string;
  /** Writes the files (path -> content) and commits them; returns the new sha. */
  commit(files: Record<string, string>, message: string, author: Author, date: string): string;
  git(...args: string[]): string;
}

export function gitIn(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, ...env } }).trim();
}

export function createScratchRepo(prefix = 'nightbench-git-'): ScratchRepo {
  const dir = tempDir(prefix);
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
  };
}

/** `count` numbered lines, so a test can say which lines a commit touches. */
export function numberedLines(count: number, label = 'line'): string {
  return Array.from({ length: count }, (_, i) => `${label} ${i + 1}\n`).join('');
}
