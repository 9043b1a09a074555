/**
 * A planted failure: the cheap suite's `work` raises while `cheapa.BROKEN` is true. One good
 * night, a night that breaks it (one "broken" issue on the fake GitHub), a night still broken (a
 * comment), a pass/fail bisect naming the breaking commit (by its range, and by the issue's
 * number), and a fixed night that closes the issue.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../helpers/cli.js';
import { cheapa, cheapb, cheapTargetConfig, createCheapTarget } from '../helpers/cheap-target.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };

describe('a workload that starts failing', () => {
  const target = createCheapTarget();
  const dir = tempDir('nb-broken-');
  const github = new FakeGitHub();
  const env = { GITHUB_TOKEN: 'e2e-token' };
  afterAll(async () => {
    await github.stop();
  });

  const nightbench = cliIn(dir, env);

  it('opens one broken issue, comments while failing, is bisected to its commit, and closes when fixed', async () => {
    await github.start();
    github.addRepository('acme/perf').addRepository('acme/cheapa');
    writeFileSync(
      path.join(dir, 'nightbench.config.json'),
      JSON.stringify({ ...cheapTargetConfig(target), repeats: 1, github: { repository: 'acme/perf', apiUrl: github.baseUrl, targetRepositories: { cheapa: 'acme/cheapa' }, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }),
    );
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-10-31T09:00:00Z');
    const good = target.a.commit({ 'cheapa.py': cheapa(0.05) }, 'Add cheapa', ada, '2026-11-01T10:00:00Z');
    await nightbench(['nightly', '--night', '2026-11-01', '--commit', good]);
    const shas: string[] = [];
    for (let i = 1; i <= 6; i++) shas.push(target.a.commit(i === 4 ? { 'cheapa.py': cheapa(0.05, true) } : { [`n${i}.txt`]: `${i}\n` }, i === 4 ? 'Break cheapa' : `Note ${i}`, ada, `2026-11-02T0${i}:00:00Z`));
    await nightbench(['nightly', '--night', '2026-11-02', '--commit', shas.at(-1)!], 1);
    const issues = () => github.issues('acme/perf').filter((i) => i.labels.includes('broken'));
    expect(issues()).toHaveLength(1);
    expect(issues()[0]!.title).toBe(`Broken: work (cheap) fails since cheapa ${shas.at(-1)!.slice(0, 7)} (2026-11-02)`);
    expect(issues()[0]!.body).toContain('cheapa is broken at this commit');
    expect(issues()[0]!.body).toContain('Break cheapa');

    const still = target.a.commit({ 'n7.txt': '7\n' }, 'Note 7', ada, '2026-11-03T01:00:00Z');
    await nightbench(['nightly', '--night', '2026-11-03', '--commit', still], 1);
    expect(issues()).toHaveLength(1);
    expect(issues()[0]!.comments.at(-1)!.body).toContain('Still failing on 2026-11-03');

    const bisected = await nightbench(['bisect', '--failing', '--workload', 'work', '--good', good, '--bad', shas.at(-1)!, '--json']);
    expect(JSON.parse(bisected.stdout)).toMatchObject({ outcome: { kind: 'culprit' }, culprit: { repo: 'cheapa', sha: shas[3] } });
    // By its issue, as bisect.yml is dispatched by hand: the range is the failure's last passing and first failing nights.
    const number = issues()[0]!.number;
    const byIssue = await nightbench(['bisect', '--issue', String(number), '--json']);
    expect(JSON.parse(byIssue.stdout)).toMatchObject({ outcome: { kind: 'culprit' }, culprit: { repo: 'cheapa', sha: shas[3] }, comment: `acme/perf#${number}` });
    expect(issues()[0]!.comments.at(-1)!.body).toContain(`**Culprit**: cheapa@[\`${shas[3]!.slice(0, 7)}\`]`);
    expect(issues()[0]!.comments.at(-1)!.body).toContain('the parent passes, the culprit fails: confirmed');
    await nightbench(['bisect', '--issue', '99'], 2);

    const fixed = target.a.commit({ 'cheapa.py': cheapa(0.05) }, 'Fix cheapa', ada, '2026-11-04T01:00:00Z');
    await nightbench(['nightly', '--night', '2026-11-04', '--commit', fixed]);
    expect(issues()).toHaveLength(1);
    expect(issues()[0]!.state).toBe('closed');
    expect(issues()[0]!.comments.at(-1)!.body).toContain('Passes again on 2026-11-04');
  });
});
