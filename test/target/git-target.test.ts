import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitTargetSchema } from '../../src/config/schema.js';
import { silentLog, type Log } from '../../src/log.js';
import { selectTargetCommits } from '../../src/target/git-target.js';
import { createScratchRepo } from '../git/scratch-repo.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const author = { name: 'Ada', email: 'ada@example.com' };

describe('the target repository over HTTP, with a server that fails for a while', () => {
  let server: GitHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('clones and fetches once the server answers again; a refusal ends at once', async () => {
    const upstream = createScratchRepo();
    const first = upstream.commit({ 'pkg.py': 'x = 1\n' }, 'first', author, '2026-12-01T10:00:00Z');
    const served = tempDir('nightbench-served-');
    execFileSync('git', ['clone', '--quiet', '--bare', upstream.dir, path.join(served, 'pkg.git')]);
    server = await startGitHttpServer(served);
    const target = gitTargetSchema.parse({ kind: 'git', name: 'pkg', repositories: [{ name: 'pkg', url: `${server.url}/pkg.git` }] });
    const warnings: string[] = [];
    const log: Log = { ...silentLog, warn: (message: string) => void warnings.push(message) };
    const workdir = tempDir('nightbench-work-');
    const select = () => selectTargetCommits(target, { workdir, baseDir: workdir, log });

    server.failNext(1);
    expect((await select()).map((c) => c.commit.sha)).toEqual([first]);
    expect(warnings).toEqual([expect.stringMatching(/^git clone failed .*returned error: 502; trying again in [\d.]+ s \(try 2 of 6\)$/)]);

    const second = upstream.commit({ 'pkg.py': 'x = 2\n' }, 'second', author, '2026-12-02T10:00:00Z');
    upstream.git('push', '--quiet', path.join(served, 'pkg.git'), 'main');
    server.failNext(1, { status: 504 });
    expect((await select()).map((c) => c.commit.sha)).toEqual([second]);
    expect(warnings[1]).toMatch(/^git fetch failed .*returned error: 504; trying again in/);

    server.failNext(1000, { status: 403 });
    await expect(select()).rejects.toThrow(/^git fetch failed .*returned error: 403$/);
    expect(server.failed).toBe(3);
  });
});
