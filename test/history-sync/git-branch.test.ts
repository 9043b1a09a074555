import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog, type Log } from '../../src/log.js';
import { gitBranchBackend } from '../../src/history-sync/git-branch.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { createBareRepo, git, loseNextPushRace, nightsIn, scratchDir, writeNight } from './helpers.js';

function setup(options: Record<string, unknown> = {}) {
  const dir = scratchDir();
  const repo = createBareRepo(dir);
  const backend = gitBranchBackend({ repo, retryDelayMs: 1, ...options }, { log: silentLog });
  return { dir, repo, backend, file: (name: string) => path.join(dir, name) };
}

describe('git branch history store', () => {
  it('finds nothing on a first night and creates nothing', async () => {
    const { backend, file } = setup();
    expect(await backend.fetch(file('fetched.sqlite'))).toEqual({ found: false, revision: undefined });
    expect(existsSync(file('fetched.sqlite'))).toBe(false);
  });

  it('saves a night to an orphan branch and fetches it back', async () => {
    const { backend, repo, file } = setup();
    writeNight(file('night1.sqlite'), '2026-12-01');
    const saved = await backend.save(file('night1.sqlite'));
    expect(saved).toMatchObject({ changed: true, attempts: 1 });
    expect(saved.merged.added).toMatchObject({ runs: 1, repeats: 3 });
    expect(git(repo, 'ls-tree', '--name-only', 'nightbench-history')).toBe('history.sqlite');
    expect(git(repo, 'rev-list', '--count', 'nightbench-history')).toBe('1');

    const fetched = await backend.fetch(file('fetched.sqlite'));
    expect(fetched).toMatchObject({ found: true, revision: saved.revision });
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01']);
  });

  it('adds each night on top of the last and writes nothing when nothing is new', async () => {
    const { backend, repo, file } = setup();
    writeNight(file('night1.sqlite'), '2026-12-01');
    await backend.save(file('night1.sqlite'));
    writeNight(file('night2.sqlite'), '2026-12-02');
    await backend.save(file('night2.sqlite'));
    expect(await backend.save(file('night2.sqlite'))).toMatchObject({ changed: false });
    expect(git(repo, 'rev-list', '--count', 'nightbench-history')).toBe('2');
    await backend.fetch(file('fetched.sqlite'));
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02']);
  });

  it('keeps both nights when another writer moved the branch between our fetch and our push', async () => {
    const { backend, repo, file } = setup();
    writeNight(file('night1.sqlite'), '2026-12-01');
    await backend.save(file('night1.sqlite'));
    // The other writer: night 1 plus its own night 2, pushed to a side branch, then moved in.
    const other = gitBranchBackend({ repo, branch: 'other-writer' }, { log: silentLog });
    await other.save(file('night1.sqlite'));
    writeNight(file('night2.sqlite'), '2026-12-02');
    await other.save(file('night2.sqlite'));
    loseNextPushRace(repo, 'nightbench-history', 'refs/heads/other-writer');

    writeNight(file('night3.sqlite'), '2026-12-03');
    const saved = await backend.save(file('night3.sqlite'));
    expect(existsSync(path.join(repo, 'race-done'))).toBe(true);
    expect(saved.attempts).toBe(2);
    await backend.fetch(file('fetched.sqlite'));
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    // Our commit sits on top of the other writer's: nothing was force-pushed away.
    expect(git(repo, 'merge-base', '--is-ancestor', 'other-writer', 'nightbench-history')).toBe('');
  });

  it('with squash keeps one commit and still loses no night to a race', async () => {
    const { backend, repo, file } = setup({ squash: true });
    writeNight(file('night1.sqlite'), '2026-12-01');
    await backend.save(file('night1.sqlite'));
    const other = gitBranchBackend({ repo, branch: 'other-writer', squash: true }, { log: silentLog });
    await other.save(file('night1.sqlite'));
    writeNight(file('night2.sqlite'), '2026-12-02');
    await other.save(file('night2.sqlite'));
    loseNextPushRace(repo, 'nightbench-history', 'refs/heads/other-writer');

    writeNight(file('night3.sqlite'), '2026-12-03');
    expect((await backend.save(file('night3.sqlite'))).attempts).toBe(2);
    expect(git(repo, 'rev-list', '--count', 'nightbench-history')).toBe('1');
    await backend.fetch(file('fetched.sqlite'));
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('gives up after the allowed tries when the branch keeps moving', async () => {
    const { repo, file } = setup();
    const backend = gitBranchBackend({ repo, attempts: 1, retryDelayMs: 1 }, { log: silentLog });
    writeNight(file('night1.sqlite'), '2026-12-01');
    await backend.save(file('night1.sqlite'));
    const other = gitBranchBackend({ repo, branch: 'other-writer' }, { log: silentLog });
    writeNight(file('night2.sqlite'), '2026-12-02');
    await other.save(file('night2.sqlite'));
    loseNextPushRace(repo, 'nightbench-history', 'refs/heads/other-writer');
    writeNight(file('night3.sqlite'), '2026-12-03');
    await expect(backend.save(file('night3.sqlite'))).rejects.toThrow(/gave up after 1 tries.*moved from/);
  });

  it('reports a push refused for another reason at once, without credentials', async () => {
    const { dir, file } = setup();
    const backend = gitBranchBackend({ repo: `file://user:s3cret@${path.join(dir, 'missing.git')}` }, { log: silentLog });
    writeNight(file('night1.sqlite'), '2026-12-01');
    const error = await backend.save(file('night1.sqlite')).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toMatch(/^remote history \(history\.sqlite on branch nightbench-history of file:\/\/\*\*\*@/);
    expect(error?.message).not.toContain('s3cret');
  });

  describe('over HTTP, with a server that fails for a while', () => {
    let server: GitHttpServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    /** A backend on `remote.git` served over HTTP, its first night saved, and the warnings it logs from then on. */
    async function served() {
      const { dir, repo, file } = setup();
      server = await startGitHttpServer(dir);
      const warnings: string[] = [];
      const log: Log = { ...silentLog, warn: (message: string) => void warnings.push(message) };
      const backend = gitBranchBackend({ repo: `${server.url}/${path.basename(repo)}`, retryDelayMs: 1 }, { log });
      writeNight(file('night1.sqlite'), '2026-12-01');
      expect(await backend.save(file('night1.sqlite'))).toMatchObject({ changed: true, attempts: 1 });
      return { server, backend, repo, file, warnings };
    }

    it('fetches once the server answers again, saying on each wait what failed', async () => {
      const { server, backend, file, warnings } = await served();
      server.failNext(2);
      expect(await backend.fetch(file('fetched.sqlite'))).toMatchObject({ found: true });
      expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01']);
      expect(server.failed).toBe(2);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/^remote history \(history\.sqlite on branch nightbench-history of http:.*returned error: 502; trying again in [\d.]+ s \(try 2 of 6\)$/);
    });

    it('saves a night whose push got a 502, fetching and merging again, and loses nothing', async () => {
      const { server, backend, repo, file, warnings } = await served();
      server.failNext(1, { match: /^POST .*git-receive-pack$/ });
      writeNight(file('night2.sqlite'), '2026-12-02');
      expect(await backend.save(file('night2.sqlite'))).toMatchObject({ changed: true, attempts: 2 });
      expect(server.failed).toBe(1);
      expect(warnings).toEqual([expect.stringMatching(/git push failed .*502.*; trying again in/)]);
      expect(git(repo, 'rev-list', '--count', 'nightbench-history')).toBe('2');
      await backend.fetch(file('fetched.sqlite'));
      expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02']);
    });

    it('commits a night once when its push landed but the answer was lost', async () => {
      const { server, backend, repo, file } = await served();
      server.failNext(1, { match: /^POST .*git-receive-pack$/, answerLost: true });
      writeNight(file('night2.sqlite'), '2026-12-02');
      // The retry finds the branch holding every run of the night: nothing more to push.
      expect(await backend.save(file('night2.sqlite'))).toMatchObject({ changed: false, attempts: 2 });
      expect(git(repo, 'rev-list', '--count', 'nightbench-history')).toBe('2');
      await backend.fetch(file('fetched.sqlite'));
      expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02']);
    });

    it('gives up after its tries when the server stays down, with git\'s line and the tries counted', async () => {
      const { server, repo, file } = await served();
      const backend = gitBranchBackend({ repo: `${server.url}/${path.basename(repo)}`, attempts: 3, retryDelayMs: 1 }, { log: silentLog });
      server.failNext(1000, { status: 503 });
      writeNight(file('night2.sqlite'), '2026-12-02');
      await expect(backend.save(file('night2.sqlite'))).rejects.toThrow(/^remote history \(.*\): git ls-remote failed .*returned error: 503 \(still failing after 3 tries\)$/);
      expect(server.failed).toBe(3);
    });

    it('fails at once when the server refuses (403): no permission does not pass', async () => {
      const { server, backend, file } = await served();
      server.failNext(1000, { status: 403 });
      writeNight(file('night2.sqlite'), '2026-12-02');
      await expect(backend.save(file('night2.sqlite'))).rejects.toThrow(/returned error: 403$/);
      expect(server.failed).toBe(1);
    });
  });

  it('rejects options the git store does not take, naming them', () => {
    expect(() => gitBranchBackend({ repo: 'x', bucket: 'b' }, { log: silentLog })).toThrow(/history remote git: .*unknown key "bucket"/);
    expect(() => gitBranchBackend({}, { log: silentLog })).toThrow(/history remote git: repo:/);
  });
});
