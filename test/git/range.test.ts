import { beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { git } from '../../src/git/git.js';
import { collectRangeContext } from '../../src/git/range.js';
import { NightbenchError } from '../../src/errors.js';
import { silentLog } from '../../src/log.js';
import { createScratchRepo, gitIn, numberedLines, type ScratchRepo } from './scratch-repo.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const grace = { name: 'Grace Hopper', email: 'grace@example.org' };
const linus = { name: 'Linus Slow', email: 'linus@example.org' };

describe('collectRangeContext', () => {
  let repo: ScratchRepo;
  let good: string;
  let bad: string;

  beforeAll(() => {
    repo = createScratchRepo();
    repo.commit({ 'pkg/core.py': numberedLines(20, 'ada') }, 'Initial core', ada, '2026-11-01T10:00:00Z');
    // Grace rewrites lines 11..20, so the code the range later touches around line 15 is hers.
    repo.commit({ 'pkg/core.py': numberedLines(10, 'ada') + numberedLines(10, 'grace') }, 'Tune the tail (#7)', grace, '2026-11-02T10:00:00Z');
    good = repo.git('rev-parse', 'HEAD');
    const lines = (numberedLines(10, 'ada') + numberedLines(10, 'grace')).split('\n');
    lines[14] = 'time.sleep(1)  # the slowdown';
    repo.commit({ 'pkg/core.py': lines.join('\n') }, 'Add a sleep (#42)', linus, '2026-11-03T10:00:00Z');
    repo.commit({ 'README.md': 'docs\n', 'logo.bin': Buffer.from([0, 1, 2, 0]).toString('latin1') }, 'Merge pull request #43 from linus/docs', linus, '2026-11-03T11:00:00Z');
    bad = repo.git('rev-parse', 'HEAD');
  });

  it('lists the commits with authors, dates and PR numbers, newest first', async () => {
    const context = await collectRangeContext(repo.dir, 'pkg', good, bad, silentLog);
    expect(context.from).toBe(good);
    expect(context.to).toBe(bad);
    expect(context.commitCount).toBe(2);
    expect(context.commits.map((c) => [c.subject, c.authorName, c.authorEmail, c.authoredAt, c.pullRequest])).toEqual([
      ['Merge pull request #43 from linus/docs', 'Linus Slow', 'linus@example.org', '2026-11-03T11:00:00+00:00', 43],
      ['Add a sleep (#42)', 'Linus Slow', 'linus@example.org', '2026-11-03T10:00:00+00:00', 42],
    ]);
  });

  it('lists changed files with line counts', async () => {
    const context = await collectRangeContext(repo.dir, 'pkg', good, bad, silentLog);
    expect(context.files).toEqual([
      { path: 'README.md', added: 1, removed: 0 },
      { path: 'logo.bin' },
      { path: 'pkg/core.py', added: 1, removed: 1 },
    ]);
  });

  it('blames the code around the touched lines as it was before the range', async () => {
    const context = await collectRangeContext(repo.dir, 'pkg', good, bad, silentLog, { contextLines: 2 });
    // Line 15 +-2 = 13..17 at the last good commit: all Grace's lines.
    expect(context.blame).toEqual([{ path: 'pkg/core.py', authors: [{ name: 'Grace Hopper', email: 'grace@example.org', lines: 5, sha: good }] }]);
    const wide = await collectRangeContext(repo.dir, 'pkg', good, bad, silentLog, { contextLines: 6 });
    // 9..21 clipped to the 20-line file: lines 9 and 10 are Ada's.
    expect(wide.blame[0]?.authors).toEqual([
      { name: 'Grace Hopper', email: 'grace@example.org', lines: 10, sha: good },
      { name: 'Ada Lovelace', email: 'ada@example.org', lines: 2, sha: repo.git('rev-parse', `${good}~1`) },
    ]);
  });

  it('names each person once: through .mailmap first, then by the same name', async () => {
    const people = createScratchRepo();
    const jimOld = { name: 'jcrist', email: 'jim@old.example.org' };
    const jimWork = { name: 'Jim Crist', email: 'jim@work.example.org' };
    const jimHome = { name: 'Jim Crist', email: 'jim@home.example.org' };
    // .mailmap maps the old identity to the work one; the home address is known only by its name.
    people.commit({ '.mailmap': 'Jim Crist <jim@work.example.org> <jim@old.example.org>\n', 'core.py': numberedLines(3, 'old') }, 'Start', jimOld, '2026-11-01T10:00:00Z');
    people.commit({ 'core.py': numberedLines(3, 'old') + numberedLines(3, 'work') }, 'More', jimWork, '2026-11-01T11:00:00Z');
    const before = people.commit({ 'core.py': numberedLines(3, 'old') + numberedLines(3, 'work') + numberedLines(3, 'home') }, 'Even more', jimHome, '2026-11-01T12:00:00Z');
    const after = people.commit({ 'core.py': numberedLines(3, 'old') + numberedLines(3, 'work') + numberedLines(3, 'home') + 'new\n' }, 'Append', jimOld, '2026-11-02T10:00:00Z');
    const context = await collectRangeContext(people.dir, 'people', before, after, silentLog, { contextLines: 20 });
    expect(context.blame[0]?.authors.map((a) => [a.name, a.lines])).toEqual([['Jim Crist', 9]]);
    expect(context.commits.map((c) => [c.authorName, c.authorEmail])).toEqual([['Jim Crist', 'jim@work.example.org']]);
  });

  it('stops listing at maxCommits but keeps the count', async () => {
    const context = await collectRangeContext(repo.dir, 'pkg', good, bad, silentLog, { maxCommits: 1 });
    expect(context.commits).toHaveLength(1);
    expect(context.commitCount).toBe(2);
  });

  function withClone(options: string[], body: (clone: string) => Promise<void>) {
    return async () => {
      const cloneParent = tempDir('nightbench-clone-');
      const clone = path.join(cloneParent, 'pkg');
      gitIn(cloneParent, ['clone', '--quiet', ...options, `file://${repo.dir}`, clone]);
      await body(clone);
    };
  }

  it('fetches the history a shallow clone lacks', withClone(['--depth', '1'], async (clone) => {
      expect(gitIn(clone, ['rev-parse', '--is-shallow-repository'])).toBe('true');
      const context = await collectRangeContext(clone, 'pkg', good, bad, silentLog, { contextLines: 2 });
      expect(context.commitCount).toBe(2);
      expect(context.blame[0]?.authors[0]?.name).toBe('Grace Hopper');
      expect(gitIn(clone, ['rev-parse', '--is-shallow-repository'])).toBe('false');
  }));

  it('fetches commits pushed after the clone was made', withClone([], async (clone) => {
    gitIn(clone, ['reset', '--quiet', '--hard', good]);
    gitIn(clone, ['update-ref', '-d', 'refs/remotes/origin/main']);
    gitIn(clone, ['reflog', 'expire', '--expire=now', '--all']);
    gitIn(clone, ['gc', '--quiet', '--prune=now']);
    expect(() => gitIn(clone, ['cat-file', '-e', `${bad}^{commit}`])).toThrow();
    const context = await collectRangeContext(clone, 'pkg', good, bad, silentLog);
    expect(context.commitCount).toBe(2);
  }));

  it('fetches what a shallow clone lacks through a server that answered 502 first', async () => {
    const served = tempDir('nightbench-served-');
    gitIn(served, ['clone', '--quiet', '--bare', repo.dir, path.join(served, 'pkg.git')]);
    const server = await startGitHttpServer(served);
    try {
      const cloneParent = tempDir('nightbench-clone-');
      const clone = path.join(cloneParent, 'pkg');
      // Not gitIn: a synchronous git would block the event loop this server answers from.
      await git(['clone', '--quiet', '--depth', '1', `${server.url}/pkg.git`, clone], cloneParent);
      server.failNext(1);
      const warnings: string[] = [];
      const context = await collectRangeContext(clone, 'pkg', good, bad, { ...silentLog, warn: (message) => void warnings.push(message) });
      expect(context.commitCount).toBe(2);
      expect(server.failed).toBe(1);
      expect(warnings).toEqual([expect.stringMatching(/^git fetch failed .*returned error: 502; trying again in/)]);
    } finally {
      await server.close();
    }
  });

  it('names a commit that no longer exists (force-push) in a git error', withClone([], async (clone) => {
    const gone = 'deadbeef'.repeat(5);
    const error = await collectRangeContext(clone, 'pkg', gone, bad, silentLog).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NightbenchError);
    expect((error as NightbenchError).kind).toBe('git');
    expect((error as Error).message).toMatch(/pkg: commit deadbeefdead no longer exists .*force-pushed/);
  }));
});
