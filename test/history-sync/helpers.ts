/**
 * Throw-away stores for the history store tests and the nightly-sequence e2e test: a history
 * file holding one night, and a bare repository whose branch another writer moves mid-save.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openHistory } from '../../src/history/open.js';
import { newRun, okRepeat } from '../history/fixtures.js';
import { sqlAll } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A history file with one complete run of `night` (workload "sum", three repeats); returns its run id. */
export function writeNight(file: string, night: string, wall = 1.5): string {
  const store = openHistory(file);
  try {
    const run = newRun({ night, startedAt: `${night}T02:00:00.000Z` });
    store.runs.beginRun(run);
    for (const repeat of [1, 2, 3]) store.runs.recordRepeat(okRepeat(run.id, 'sum', repeat, wall + repeat / 100));
    store.runs.finishRun(run.id, { status: 'complete', finishedAt: `${night}T02:05:00.000Z` });
    return run.id;
  } finally {
    store.close();
  }
}

/** The nights a history file holds, in order. */
export function nightsIn(file: string): string[] {
  return (sqlAll(file, 'SELECT night FROM runs ORDER BY night') as { night: string }[]).map((r) => r.night);
}

export function scratchDir(prefix = 'nightbench-store-'): string {
  return tempDir(prefix);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

export function createBareRepo(dir: string): string {
  const repo = path.join(dir, 'remote.git');
  execFileSync('git', ['init', '--quiet', '--bare', repo]);
  return repo;
}

/**
 * Makes the next push to `branch` lose a race: just before the push lands, the branch is moved
 * to `movedTo` (as if another night's job had saved first), so git rejects ours. Only once.
 */
export function loseNextPushRace(repo: string, branch: string, movedTo: string): void {
  const hook = path.join(repo, 'hooks', 'pre-receive');
  // Ref updates inside the push's quarantine are refused; the moving writer is someone else.
  writeFileSync(
    hook,
    `#!/bin/sh\nif [ ! -e race-done ]; then touch race-done; env -u GIT_QUARANTINE_PATH git update-ref refs/heads/${branch} ${movedTo}; fi\n`,
  );
  chmodSync(hook, 0o755);
}
