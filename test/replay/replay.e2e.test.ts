/**
 * `nightbench replay` over a small SQLite history (three workloads, 90 nights) with a planted step
 * that stays and a planted blip back after two nights: the step is one issue still open, the blip
 * one closed and counted transient; a dry run stores nothing; a second replay into the same
 * folder is refused, and one over episodes already stored says they are not replayed again.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import { runCli } from '../helpers/cli.js';
import { sqlAll } from '../helpers/sql.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const stepNight = 60;
const blipNight = 30;

describe('nightbench replay', () => {
  const dir = tempDir('nb-replay-');
  const db = path.join(dir, 'history.sqlite');
  let history: SyntheticHistory;
  beforeAll(() => {
    const store = openHistory(db);
    history = writeSyntheticHistory(store, {
      seed: 7, workloads: ['shuffle', 'groupby', 'join'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 90, repeats: 3, samplesForLastNights: 0,
      changes: [
        { workload: 'groupby', metric: 'wall_time', night: stepNight, factor: 1.5 },
        { workload: 'join', metric: 'wall_time', night: blipNight, factor: 1.6, recoversAt: blipNight + 2 },
      ],
    });
    store.close();
  });

  const replay = (args: string[]) => runCli(['replay', '--db', db, '--from', history.nights[0]!, '--to', history.nights.at(-1)!, ...args], { cwd: dir });
  const episodes = () => sqlAll(db, 'SELECT workload, first_bad_night AS firstBad, state, found_in_replay AS replayed FROM regressions ORDER BY first_bad_night');

  it('a dry run writes the issue files and prints the issues, and stores no episode', async () => {
    const result = await replay(['--dry-run', '--json', '--issues-dir', path.join(dir, 'dry')]);
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout);
    expect(outcome.issues.map((i: { firstBadNight: string }) => i.firstBadNight)).toEqual([history.nights[blipNight], history.nights[stepNight]]);
    expect(episodes()).toEqual([]);
    expect(readdirSync(path.join(dir, 'dry'))).toHaveLength(2);
  });

  it('records the episodes marked as replayed, and says which issue was transient and how long each stayed open', async () => {
    const result = await replay(['--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/replay: \d{4}-\d{2}-\d{2} \(90\/90\)/);
    const outcome = JSON.parse(result.stdout);
    expect(outcome).toMatchObject({ nights: 90, series: 3, values: 90 * 3 * 3, dryRun: false });
    const [blip, step] = outcome.issues;
    expect(blip).toMatchObject({ openedNight: history.nights[blipNight], transient: true, series: [{ workload: 'join', metric: 'wall_time' }] });
    expect(blip.closedNight > blip.openedNight).toBe(true);
    expect(blip.nightsOpen).toBeLessThan(10);
    expect(step).toMatchObject({ openedNight: history.nights[stepNight], transient: false, nightsOpen: 90 - 1 - stepNight, series: [{ workload: 'groupby' }] });
    expect(step.closedNight).toBeUndefined();
    expect(step.series[0].change).toBeGreaterThan(0.35);
    expect(outcome.totals).toMatchObject({ issues: 2, stillOpen: 1, perYear: { 2026: 2 }, transient: { judged: 2, transient: 1, share: 0.5 }, unsettled: [] });

    expect(episodes()).toEqual([
      { workload: 'join', firstBad: history.nights[blipNight], state: 'recovered', replayed: 1 },
      { workload: 'groupby', firstBad: history.nights[stepNight], state: 'still-regressed', replayed: 1 },
    ]);
    const issueFile = path.join(outcome.issuesDir, `${step.fingerprint}.md`);
    expect(readFileSync(issueFile, 'utf8')).toContain('groupby');
    expect(readFileSync(path.join(outcome.issuesDir, `${blip.fingerprint}.md`), 'utf8')).toContain('<!-- nightbench:state=closed -->');
  });

  it('publishes the replay\'s issue files with the site: counted and listed apart on the Detection quality page, the open one linked from the index', async () => {
    const result = await runCli(['report', '--db', db, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const site = JSON.parse(result.stdout).outDir as string;
    const files = readdirSync(path.join(dir, 'reports', 'replay', `${history.nights[0]}_${history.nights.at(-1)}`));
    expect(files).toHaveLength(2);
    for (const file of files) expect(existsSync(path.join(site, 'issues', file))).toBe(true);
    const quality = readFileSync(path.join(site, 'quality.html'), 'utf8');
    expect(quality).toContain('data-files="0" data-replayed="2"');
    expect(quality).toContain('0 issues opened on GitHub · 2 a replay would have filed (listed below)');
    expect([...quality.matchAll(/id="replay-issue-list">(.*?)<\/ul>/gs)][0]![1]!.match(/href="issues\/[0-9a-f]{16}\.md"/g)).toHaveLength(2);
    const index = readdirSync(path.join(site, 'data', 'index')).map((part) => readFileSync(path.join(site, 'data', 'index', part), 'utf8')).join('');
    // The index links the issue of each series' open episode: the step's (the blip recovered).
    expect(files.filter((file) => index.includes(`replay ${file.slice(0, 8)}`))).toHaveLength(1);
  });

  it('refuses to write into a folder that holds an earlier replay, and bad dates, before judging anything', async () => {
    const again = await replay([]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds files/);
    const backwards = await runCli(['replay', '--db', db, '--from', '2026-03-01', '--to', '2026-01-01'], { cwd: dir });
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/--from 2026-03-01 is after --to 2026-01-01/);
    expect(existsSync(path.join(dir, 'reports', 'replay', '2026-03-01_2026-01-01'))).toBe(false);
  });

  it('warns that episodes already stored for the range are not replayed again', async () => {
    const result = await replay(['--dry-run', '--json', '--issues-dir', path.join(dir, 'again')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`2 episodes of the history already reach ${history.nights[0]} or later`);
  });

  it('a dry run on a history it cannot read leaves no scratch copy behind', async () => {
    const scratchParent = tempDir('nb-replay-tmp-');
    writeFileSync(path.join(dir, 'not-a-history.sqlite'), 'not a database\n');
    for (const file of ['missing.sqlite', 'not-a-history.sqlite']) {
      const result = await runCli(['replay', '--db', path.join(dir, file), '--from', '2026-01-01', '--to', '2026-01-02', '--dry-run'], { cwd: dir, env: { TMPDIR: scratchParent } });
      expect(result.code, result.stderr).toBe(4);
    }
    // The TypeScript loader the test runs the CLI through keeps its cache in the temp folder too
    // (tsx-<uid>), when it gets round to writing it before the process ends.
    expect(readdirSync(scratchParent).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
  });
});
