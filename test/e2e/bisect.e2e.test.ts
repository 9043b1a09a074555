/**
 * From an issue to its culprit: two throw-away repositories (like dask and distributed) on
 * PYTHONPATH, the cheap suite's `work` sleeping as long as their code says with 10% seeded noise.
 * Five good nights, then 16 commits across both repositories with a slowdown planted in the 11th
 * (0.2 s -> 0.6 s), one bad night that opens an issue on the fake GitHub, and `nightbench bisect --issue 1`.
 * The bad night tests each repository at its last commit before the night's cut-off (02:17 UTC),
 * so the 16 commits land between the cut-offs of two nights.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import { cliIn, runCli, type CliStep } from '../helpers/cli.js';
import { sqlAll } from '../helpers/sql.js';
import { cheapa, cheapb, cheapIssuesConfig, createCheapTarget, type CheapTarget } from '../helpers/cheap-target.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const linus = { name: 'Linus Slow', email: 'linus@example.org' };
const env = { GITHUB_TOKEN: 'e2e-token', NIGHTBENCH_NOISE_CV: '0.1' };

/**
 * Why the bad night always opens its issue (with 10% noise per repeat, alpha 0.05, noiseMultiple 2):
 * - the rank test: 5 baseline nights x 3 repeats against 3 new values give an exact minimum
 *   one-sided p of 1 / C(18, 3) = 1/816, and alpha 0.05 still holds with 7 of the 45 baseline-new
 *   pairs inverted; at x2 one pair inverts with probability Phi(-ln 2 / (0.1 sqrt 2)) = 5e-7.
 * - the noise bound binds instead: ln(ratio) must reach 2 x noise x sqrt(1 + 1/nights), and the
 *   noise comes from the few differences between the baseline's nightly medians. Seeded trials of
 *   judgeNight at this config (work_time, lognormal CV 10%) missed the step on 12% of bad nights
 *   with the former 2 baseline nights and a x1.5 step (2,431 of 20,000: the flake), on 53 of
 *   100,000 with 4 nights at x2, and on 5 of 100,000 with 5 nights at x2, the set-up here (3 more
 *   cheap nights, about 6 s each).
 */
describe('nightbench bisect', () => {
  let target: CheapTarget;
  let dir: string;
  let github: FakeGitHub;
  let nightbench: CliStep;

  beforeEach(async () => {
    target = createCheapTarget();
    dir = tempDir('nb-bisect-');
    nightbench = cliIn(dir, env, { timed: true });
    github = await new FakeGitHub().start();
    github.addRepository('acme/perf').addRepository('acme/cheapa').addRepository('acme/cheapb');
    writeFileSync(
      path.join(dir, 'nightbench.config.json'),
      JSON.stringify(cheapIssuesConfig(target, github.baseUrl)),
    );
  });
  afterEach(async () => {
    await github.stop();
  });


  /** Five good nights, then 16 commits on 2026-11-02 after its cut-off, alternating between the repositories as `repoOf` says, the 11th planting `plant`. */
  async function plantedRange(repoOf: (i: number) => 'a' | 'b', plant: 'a' | 'b') {
    const a0 = target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Add cheapa', ada, '2026-10-28T10:00:00Z');
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-10-28T09:00:00Z');
    // Recorded only: at this test's loose alpha and noise multiple a good night judged against a
    // short baseline sometimes opens an issue of its own; the bad night is the one judged.
    for (const night of ['2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01']) await nightbench(['nightly', '--no-detect', '--night', night, '--commit', a0]);
    const a1 = target.a.commit({ 'README.md': 'cheapa\n' }, 'Describe cheapa', ada, '2026-11-01T10:00:00Z');
    await nightbench(['nightly', '--no-detect', '--night', '2026-11-02', '--commit', a1]);
    const range: { repo: 'a' | 'b'; sha: string }[] = [];
    for (let i = 1; i <= 16; i++) {
      const repo = i === 11 ? plant : repoOf(i);
      const date = `2026-11-02T${String(i + 3).padStart(2, '0')}:00:00Z`;
      const planted = i === 11;
      // Three times the work: a step a loaded machine's noise cannot blur into its neighbours.
      const files: Record<string, string> = planted ? (repo === 'a' ? { 'cheapa.py': cheapa(0.6) } : { 'cheapb.py': cheapb(0.4) }) : { [`notes-${i}.txt`]: `${i}\n` };
      const sha = target[repo].commit(files, planted ? 'Be thorough (#11)' : `Note ${i}`, planted ? linus : ada, date);
      if (planted) github.addCommit(repo === 'a' ? 'acme/cheapa' : 'acme/cheapb', sha, { login: 'linus-slow' });
      range.push({ repo, sha });
    }
    // No --commit: every repository at its last commit before the night's cut-off, the end of the range.
    await nightbench(['nightly', '--night', '2026-11-03']);
    return range;
  }

  async function bisectsTheIssue(range: { repo: 'a' | 'b'; sha: string }[], repoName: string) {
    const issues = github.issues('acme/perf');
    expect(issues, 'the bad night opened one issue').toHaveLength(1);
    const result = await nightbench(['bisect', '--issue', '1', '--json']);
    const json = JSON.parse(result.stdout) as { outcome: { kind: string; state: number }; culprit: { repo: string; sha: string }; result: { steps: { kind: string }[]; repeats: number; confirmation: { confirmed: boolean } }; clusterMinutes: number };
    process.stderr.write(`  bisect: ${json.result.steps.filter((s) => s.kind === 'step').length} steps, ${json.result.repeats} repeats, ${json.clusterMinutes.toFixed(1)} cluster minutes\n`);
    const planted = range[10]!;
    const comments = issues[0]!.comments;
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    if (json.outcome.kind === 'spread') {
      // What is right under noise (a loaded machine can make the culprit's confirmation against
      // its parent inconclusive): a spread that holds the planted commit, and says it is one.
      const spread = json.outcome as unknown as { from: number; to: number };
      expect(spread.from).toBeLessThanOrEqual(11);
      expect(spread.to).toBeGreaterThanOrEqual(11);
      expect(body).toContain('**The change is spread over commits');
      expect(body).toContain(planted.sha.slice(0, 7));
    } else {
      expect(json.outcome).toEqual({ kind: 'culprit', state: 11 });
      expect(json.culprit).toMatchObject({ repo: repoName, sha: planted.sha });
      expect(json.result.confirmation.confirmed).toBe(true);
      expect(body).toContain(`**Culprit**: ${repoName}@[\`${planted.sha.slice(0, 7)}\`](https://github.com/acme/${repoName}/commit/${planted.sha}) Be thorough (#11), by Linus Slow (@linus-slow)`);
      expect(body).toMatch(/Confirmation \(culprit against its parent, interleaved, \d+ \+ \d+ repeats\): median [\d.]+ m?s -> [\d.]+ m?s, x\d\.\d+ \(95% interval \d\.\d+\.\.\d+\.\d+\), Mann-Whitney p = [\d.e-]+: confirmed/);
    }
    // A straight halving is log2(16) steps; a spread came from a step measured between the levels,
    // and each of its two edges is then halved apart: at most twice that.
    expect(json.result.steps.filter((s) => s.kind === 'step').length, 'log2(16) steps, twice for a spread').toBeLessThanOrEqual(json.outcome.kind === 'culprit' ? 4 : 8);
    // The first step is below the plant: good, or, in a spread, measured between the levels (a loaded machine's partial).
    const firstStep = json.outcome.kind === 'culprit' ? 'good' : '(good|partial)';
    expect(body).toMatch(new RegExp(`\\| step \\| 8/16 \\| cheap[ab]@[0-9a-f]{7} \\| \\d+ \\| [\\d.]+ m?s \\| ${firstStep} \\|`));
    expect(body).toMatch(/Cost: [\d.]+ cluster minutes, \d+ repeats on local:/);

    // Recorded as its own kind: the nightly series and detection never see it.
    const store = openHistory(path.join(dir, '.nightbench/history.sqlite'));
    try {
      expect(store.bisects.bisects({ workload: 'work' })).toMatchObject([{ outcome: json.outcome.kind, ...(json.outcome.kind === 'culprit' ? { culprit: { repo: repoName, sha: planted.sha } } : {}), issueNumber: 1 }]);
      const kinds = new Set(store.runs.resultRows().map((r) => r.kind));
      expect(kinds).toEqual(new Set(['nightly', 'bisect']));
      expect(store.runs.resultRows({ kind: 'nightly' }).every((r) => r.night <= '2026-11-03')).toBe(true);
    } finally {
      store.close();
    }
    // Detection judges the same series as before the bisect (exit 1: the regression is still open).
    const detected = await nightbench(['detect', '--night', '2026-11-03', '--json'], 1);
    expect(detected.stdout).not.toContain('bisect');
    await nightbench(['report']);
    const page = readFileSync(path.join(dir, 'reports/site/workloads/cheap/work.html'), 'utf8');
    if (json.outcome.kind === 'culprit') expect(page).toContain(`<code>${repoName}@${planted.sha.slice(0, 10)}</code>`);
  }

  it('names the planted commit of the first repository and comments on the issue', async () => {
    const range = await plantedRange((i) => (i % 2 === 0 ? 'a' : 'b'), 'a');
    await bisectsTheIssue(range, 'cheapa');
  });

  it('names the planted commit when it is in the second repository', async () => {
    const range = await plantedRange((i) => (i % 2 === 0 ? 'a' : 'b'), 'b');
    await bisectsTheIssue(range, 'cheapb');
  });

  it('says "not reproduced" when good and bad do not differ, and exits 0', async () => {
    const good = target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Add cheapa', ada, '2026-11-01T10:00:00Z');
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-11-01T09:00:00Z');
    for (let i = 1; i <= 4; i++) target[i % 2 ? 'b' : 'a'].commit({ [`notes-${i}.txt`]: `${i}\n` }, `Note ${i}`, ada, `2026-11-02T0${i}:00:00Z`);
    const bad = target.a.commit({ 'README.md': 'cheapa\n' }, 'Describe cheapa', ada, '2026-11-02T10:00:00Z');
    // Good and bad run the same code: with the noise seeded by the code and the repeat alone, the
    // two sides draw the same 10% noise, and only the machine can tell them apart. With noise drawn
    // afresh per run, the reproduction test's false alarms (about 1% of null bisects, at p < 0.01
    // and 3 standard errors looked at after every round) made this test fail once in a busy CI.
    const result = await runCli(['bisect', '--good', good, '--bad', bad, '--workload', 'work', '--metric', 'work_time'], { cwd: dir, env: { ...env, NIGHTBENCH_NOISE_SEED: 'null-bisect' } });
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stdout).toContain('**Not reproduced**');
    expect(result.stdout).not.toContain('Culprit');
    // Every state's cluster was recorded, so a later start could end it had the bisect been killed; each stopped by the bisect itself.
    const processes = sqlAll(path.join(dir, '.nightbench/history.sqlite'), "SELECT p.name, p.fate FROM run_processes p JOIN runs r ON r.id = p.run_id WHERE r.kind = 'bisect'") as { name: string; fate: string }[];
    expect(processes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(processes.map((p) => p.fate))).toEqual(new Set(['stopped']));
  });
});
