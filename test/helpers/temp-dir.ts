import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished, TestRunner } from 'vitest';

/** Directories made outside a test (in beforeAll, at a file's top level, or by a bench/ script): they serve more than one test. */
const outliving = new Set<string>();

/** Removes `dir` and all it holds; never throws, so a cleanup never fails a test. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh directory under the OS temp folder, named `prefix` and six random characters, that is
 * removed whatever the outcome: made in a test (or its beforeEach/afterEach), when that test has
 * finished, after its afterEach hooks (which stop what the test started in it); made outside a test
 * (beforeAll, a file's top level), after all tests of the file, after the file's own afterAll hooks.
 * Made outside vitest (bench/ scripts use some test helpers), when the process exits.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (TestRunner.getCurrentTest()) {
    onTestFinished(() => removeDir(dir));
  } else {
    if (outliving.size === 0) process.once('exit', removeOutliving);
    outliving.add(dir);
  }
  return dir;
}

/**
 * Removes the directories that outlived one test. Registered for every test file by the setup
 * file test/helpers/temp-dir-setup.ts, ahead of the file's own hooks, so it runs after them.
 */
export function removeOutliving(): void {
  process.off('exit', removeOutliving);
  for (const dir of outliving) removeDir(dir);
  outliving.clear();
}
