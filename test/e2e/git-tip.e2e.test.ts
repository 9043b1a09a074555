import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScratchRepo } from '../git/scratch-repo.js';
import { runCli } from '../helpers/cli.js';
import { tinyTargetConfig } from '../helpers/tiny-target.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const grace = { name: 'Grace Hopper', email: 'grace@example.org' };
const tinytarget = (version: string) => `VERSION = "${version}"\n\ndef work(i):\n    return i + 1\n`;

describe('nightly against the git tip of a target', () => {
  it('records each night\'s commit with its metadata, fetching only what is new', async () => {
    const upstream = createScratchRepo('nb-upstream-');
    const first = upstream.commit({ 'tinytarget/__init__.py': tinytarget('1') }, 'Add tinytarget', ada, '2026-11-29T12:00:00Z');
    const dir = tempDir('nb-tip-');
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify(tinyTargetConfig(upstream.dir, { repeats: 1 })));
    const night1 = await runCli(['nightly', '--no-detect', '--night', '2026-11-30'], { cwd: dir });
    expect(night1.code, night1.stderr).toBe(0);
    expect(night1.stderr).toMatch(/cloning tinytarget/);

    const second = upstream.commit({ 'tinytarget/__init__.py': tinytarget('2') }, 'Make work faster (#42)', grace, '2026-11-30T12:00:00Z');
    const night2 = await runCli(['nightly', '--no-detect', '--night', '2026-12-01'], { cwd: dir });
    expect(night2.code, night2.stderr).toBe(0);
    expect(night2.stderr).toMatch(/fetched tinytarget: 1 new commit on main/);
    expect(night2.stderr).not.toMatch(/cloning/);

    const db = new Database(path.join(dir, '.nightbench/history.sqlite'), { readonly: true });
    const runs = db.prepare('SELECT r.night, c.sha, r.status FROM runs r JOIN run_commits c ON c.run_id = r.id ORDER BY r.night').all();
    expect(runs).toEqual([
      { night: '2026-11-30', sha: first, status: 'complete' },
      { night: '2026-12-01', sha: second, status: 'complete' },
    ]);
    const commit = db.prepare('SELECT * FROM commits WHERE sha = ?').get(second);
    expect(commit).toEqual({
      repo: 'tinytarget',
      sha: second,
      parents: first,
      author_name: 'Grace Hopper',
      author_email: 'grace@example.org',
      authored_at: '2026-11-30T12:00:00+00:00',
      committed_at: '2026-11-30T12:00:00+00:00',
      subject: 'Make work faster (#42)',
    });
    // The workload really ran against the checkout: it imported tinytarget from PYTHONPATH.
    expect(db.prepare("SELECT count(*) AS n FROM results WHERE metric = 'tasks' AND value = 4").get()).toEqual({ n: 2 });
    db.close();

    // An older night can be backfilled at a given commit.
    const backfill = await runCli(['nightly', '--no-detect', '--night', '2026-11-29', '--commit', first, '--json'], { cwd: dir });
    expect(backfill.code, backfill.stderr).toBe(0);
    expect(JSON.parse(backfill.stdout).runs[0]).toMatchObject({ night: '2026-11-29', status: 'complete' });
    const missing = await runCli(['nightly', '--no-detect', '--commit', 'f'.repeat(40)], { cwd: dir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/commit f{40} does not exist/);
  });
});
