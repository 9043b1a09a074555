import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** bisect on the default (installed) target: the one line says what bisect needs, before anything is opened. */
describe('bisect without a git target', () => {
  it('says bisect needs one (not "--commit needs a git target", a flag not given), exit 2, no history created', async () => {
    const dir = tempDir('nb-bisect-installed-');
    const db = path.join(dir, 'history.sqlite');
    const result = await runCli(['bisect', '--good', 'abc', '--bad', 'def', '--workload', 'sum', '--db', db], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('nightbench: bisect needs a git target (target.kind "git"): an installed target has no commits to search\n');
    expect(existsSync(db)).toBe(false);
  });
});
