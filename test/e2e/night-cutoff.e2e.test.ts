/**
 * Every repository at its own state of the night: two throw-away repositories (like dask and
 * distributed), the first quiet for four nights while the second gets a commit every day, and
 * one of the second's commits slows the cheap suite's `work` down fivefold. Each night is
 * replayed with `--night` alone: each repository at its last commit before that night's cut-off
 * (02:17 UTC). The issue of the slowdown names only the second repository, with exactly the
 * commits that landed between the two nights' cut-offs.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../helpers/cli.js';
import { cheapa, cheapb, cheapIssuesConfig, createCheapTarget } from '../helpers/cheap-target.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const linus = { name: 'Linus Slow', email: 'linus@example.org' };

describe("a night's cut-off", () => {
  const target = createCheapTarget();
  const dir = tempDir('nb-cutoff-');
  const github = new FakeGitHub();
  const env = { GITHUB_TOKEN: 'e2e-token', NIGHTBENCH_NOISE_CV: '0.1' };
  afterAll(async () => {
    await github.stop();
  });

  const nightbench = cliIn(dir, env);

  it('tests each repository at its own last commit before the cut-off, and the issue names only the one that changed', async () => {
    await github.start();
    github.addRepository('acme/perf').addRepository('acme/cheapa').addRepository('acme/cheapb');
    // Only the work's own time is judged (see cheapIssuesConfig).
    writeFileSync(path.join(dir, 'nightbench.config.json'), JSON.stringify(cheapIssuesConfig(target, github.baseUrl)));
    const a = target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Add cheapa', ada, '2026-10-31T10:00:00Z');
    const b: string[] = [target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-10-31T09:00:00Z')];
    b.push(target.b.commit({ 'day-1.txt': '1\n' }, 'Note of day 1', ada, '2026-11-01T12:00:00Z'));
    b.push(target.b.commit({ 'day-2.txt': '2\n' }, 'Note of day 2', ada, '2026-11-02T12:00:00Z'));
    b.push(target.b.commit({ 'day-3.txt': '3\n' }, 'Note of day 3', ada, '2026-11-03T05:00:00Z'));
    const planted = target.b.commit({ 'cheapb.py': cheapb(0.8) }, 'Be thorough (#11)', linus, '2026-11-03T12:00:00Z');
    // Already upstream when every night below runs, but after the last night's cut-off.
    const tooLate = target.b.commit({ 'day-4.txt': '4\n' }, 'Note of day 4', ada, '2026-11-04T03:00:00Z');
    github.addCommit('acme/cheapb', planted, { login: 'linus-slow' });

    // Recorded only: a short baseline judged at this loose alpha can open an issue of its own.
    for (const night of ['2026-11-01', '2026-11-02', '2026-11-03']) await nightbench(['nightly', '--no-detect', '--night', night]);
    await nightbench(['nightly', '--night', '2026-11-04']);

    const db = new Database(path.join(dir, '.nightbench/history.sqlite'), { readonly: true });
    const tested = db.prepare('SELECT r.night, c.repo, c.sha FROM runs r JOIN run_commits c ON c.run_id = r.id ORDER BY r.night, c.repo').all() as { night: string; repo: string; sha: string }[];
    db.close();
    expect(tested).toEqual([
      { night: '2026-11-01', repo: 'cheapa', sha: a },
      { night: '2026-11-01', repo: 'cheapb', sha: b[0] },
      { night: '2026-11-02', repo: 'cheapa', sha: a },
      { night: '2026-11-02', repo: 'cheapb', sha: b[1] },
      { night: '2026-11-03', repo: 'cheapa', sha: a },
      { night: '2026-11-03', repo: 'cheapb', sha: b[2] },
      { night: '2026-11-04', repo: 'cheapa', sha: a },
      { night: '2026-11-04', repo: 'cheapb', sha: planted },
    ]);

    const issues = github.issues('acme/perf');
    expect(issues, issues.map((i) => `#${i.number} ${i.title}\n${i.body}`).join('\n\n')).toHaveLength(1);
    const [issue] = issues;
    expect(issue!.title).toBe(`Performance regression: 1 workload slower since cheapb ${planted.slice(0, 7)} (2026-11-04)`);
    const range = issue!.body.slice(issue!.body.indexOf('## Suspect range'), issue!.body.indexOf('## Environment'));
    // The commits between the cut-offs of 2026-11-03 and 2026-11-04, and nothing of the quiet repository.
    expect(range).toContain(`**cheapb**: [\`${b[2]!.slice(0, 7)}..${planted.slice(0, 7)}\`]`);
    expect(range).toContain('2 commits.');
    for (const present of ['Be thorough', 'Note of day 3']) expect(range).toContain(present);
    for (const absent of ['cheapa', 'Note of day 2', 'Note of day 4', tooLate.slice(0, 7)]) expect(range).not.toContain(absent);
  });
});
