import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../src/git/git.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('git', () => {
  it("names git's cause, not the advice printed after it", async () => {
    const dir = tempDir('nb-git-');
    const missing = path.join(dir, 'no-such-repository');
    // git says why on its first fatal: line, then "Please make sure you have the correct access
    // rights" and "and the repository exists." on lines of their own.
    await expect(git(['ls-remote', missing], dir)).rejects.toThrow(new RegExp(`^git ls-remote failed in .*: fatal: '${missing}' does not appear to be a git repository$`));
  });
});
