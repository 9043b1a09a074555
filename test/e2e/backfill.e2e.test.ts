/**
 * `nightbench backfill` over twelve past nights of the cheap suite's two throw-away repositories:
 * each night at its own cut-off per repository, killed outright halfway and started again (no
 * night lost, none recorded twice), then judged once, night by night, with the same episodes as
 * `nightbench detect` replayed night by night on the same history.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, runCli } from '../helpers/cli.js';
import { cheapa, cheapb, cheapTargetConfig, createCheapTarget } from '../helpers/cheap-target.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const range = ['--from', '2022-12-01', '--to', '2022-12-12'];

describe('a backfill of twelve nights', () => {
  const target = createCheapTarget();
  const dir = tempDir('nb-backfill-');

  const nightbench = cliIn(dir);

  const b0 = target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2022-11-30T09:00:00Z');
  const b1 = target.b.commit({ 'cheapb.py': cheapb(0), 'b1.txt': '1\n' }, 'Touch cheapb before the cut-off', ada, '2022-12-02T01:00:00Z');
  const a0 = target.a.commit({ 'cheapa.py': cheapa(0.05) }, 'Add cheapa', ada, '2022-11-30T10:00:00Z');
  const a1 = target.a.commit({ 'late.txt': '1\n' }, 'A note after the cut-off', ada, '2022-12-02T03:00:00Z');
  // Four times as slow, not twice: on a loaded machine (CI beside two busy loops and benches) the
  // first eight nights' medians of the 50 ms sleep alternated 0.044-0.057 s, the young series'
  // noise read 20%, and a doubling stood 3.5 noise units out, under the fast path's 4: nothing
  // opened. The test is of the backfill, not of detection's reach.
  const a2 = target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Make cheapa four times as slow', ada, '2022-12-08T12:00:00Z');

  it('dry run: lists each night with every repository at its own last commit before the cut-off', async () => {
    writeFileSync(path.join(dir, 'nightbench.config.json'), JSON.stringify({ ...cheapTargetConfig(target), repeats: 3 }));
    // Bad input is refused before the history is even created.
    await nightbench(['backfill', '--from', '2022-12-05', '--to', '2022-12-01'], 2);
    await nightbench(['backfill', '--from', '2022-12-01', '--every', '0'], 2);
    expect(existsSync(path.join(dir, '.nightbench/history.sqlite'))).toBe(false);
    const { stdout } = await nightbench(['backfill', ...range, '--dry-run', '--json']);
    const plan = JSON.parse(stdout) as { nights: { night: string; commits: Record<string, string> }[]; skipped: string[] };
    expect(plan.nights.map((n) => n.night)).toHaveLength(12);
    const commitsOf = (night: string) => plan.nights.find((n) => n.night === night)!.commits;
    expect(commitsOf('2022-12-01')).toEqual({ cheapa: a0, cheapb: b0 });
    expect(commitsOf('2022-12-02')).toEqual({ cheapa: a0, cheapb: b1 });
    expect(commitsOf('2022-12-03')).toEqual({ cheapa: a1, cheapb: b1 });
    expect(commitsOf('2022-12-09')).toEqual({ cheapa: a2, cheapb: b1 });
    const older = await nightbench(['backfill', '--from', '2022-11-29', '--dry-run'], 3);
    expect(older.stderr).toContain("cheapa has no commit before the night's cut-off 2022-11-29T02:17:00Z");
  });

  it('killed halfway, goes on where it stopped; each night once; judged with the episodes of a night-by-night replay', async () => {
    let killed = false;
    await nightbench(['backfill', ...range], null, {
      onStderr: (child, stderr) => {
        // In the middle of the sixth night: its run has begun and measured a repeat.
        const sixth = stderr.indexOf('night 2022-12-06 (6/12)');
        if (!killed && sixth >= 0 && stderr.slice(sixth).includes('repeat 1/3')) {
          killed = true;
          child.kill('SIGKILL');
        }
      },
    });
    expect(killed).toBe(true);
    const resumed = JSON.parse((await nightbench(['backfill', ...range, '--json'])).stdout) as { recorded: { night: string }[]; skipped: string[]; judged: string[]; episodesFound: number[] };
    expect(resumed.skipped).toEqual(['2022-12-01', '2022-12-02', '2022-12-03', '2022-12-04', '2022-12-05']);
    expect(resumed.recorded.map((r) => r.night)).toEqual(['2022-12-06', '2022-12-07', '2022-12-08', '2022-12-09', '2022-12-10', '2022-12-11', '2022-12-12']);
    expect(resumed.judged).toHaveLength(12);

    const dbFile = path.join(dir, '.nightbench/history.sqlite');
    const db = new Database(dbFile, { readonly: true });
    const finished = db.prepare("SELECT night, count(*) AS runs FROM runs WHERE kind = 'nightly' AND status = 'complete' GROUP BY night ORDER BY night").all() as { night: string; runs: number }[];
    expect(finished).toHaveLength(12);
    expect(finished.every((n) => n.runs === 1)).toBe(true);
    // The night the kill cut short stays as what it measured, marked incomplete, and was recorded again whole.
    expect(db.prepare("SELECT night, status FROM runs WHERE status <> 'complete'").all()).toEqual([{ night: '2022-12-06', status: 'incomplete' }]);
    const commitsOfNight = (night: string) => Object.fromEntries((db.prepare("SELECT c.repo, c.sha FROM run_commits c JOIN runs r ON r.id = c.run_id WHERE r.night = ? AND r.status = 'complete'").all(night) as { repo: string; sha: string }[]).map((c) => [c.repo, c.sha]));
    expect(commitsOfNight('2022-12-02')).toEqual({ cheapa: a0, cheapb: b1 });
    expect(commitsOfNight('2022-12-09')).toEqual({ cheapa: a2, cheapb: b1 });
    const episodes = () => db.prepare("SELECT workload, metric, kind, first_bad_night, last_good_night, state, found_in_backfill FROM regressions WHERE metric = 'work_time'").all();
    // Should it fail, what the nights measured says whether the machine's load hid the step (the work is a 50 ms sleep).
    // With each repeat's status (a repeat the cluster disturbed is no point) and the verdicts' reasons of a dry run.
    const measured = db.prepare("SELECT r.night, r.status, group_concat(round(v.value, 3) || ' ' || p.status, ', ') AS seconds FROM runs r JOIN results v ON v.run_id = r.id JOIN repeats p ON p.run_id = v.run_id AND p.workload = v.workload AND p.repeat = v.repeat WHERE v.metric = 'work_time' GROUP BY r.id ORDER BY r.night, r.started_at").all();
    const verdicts = episodes().length > 0 ? '' : (await runCli(['detect', '--db', dbFile, '--night', '2022-12-10', '--dry-run', '--all'], { cwd: dir })).stdout;
    expect(episodes(), `${JSON.stringify(measured)}\n${verdicts}`).toEqual([{ workload: 'work', metric: 'work_time', kind: 'regression', first_bad_night: '2022-12-09', last_good_night: '2022-12-08', state: 'still-regressed', found_in_backfill: 1 }]);
    expect(resumed.episodesFound.length).toBeGreaterThan(0);

    // The same history judged by `detect`, night by night as the nightly would have: the same episodes.
    const replayFile = path.join(dir, 'replay.sqlite');
    copyFileSync(dbFile, replayFile);
    const replay = new Database(replayFile);
    replay.exec('DELETE FROM regressions');
    replay.close();
    for (const night of resumed.judged) {
      // 1 once an episode is open.
      const detected = await runCli(['detect', '--db', replayFile, '--night', night], { cwd: dir });
      expect([0, 1], detected.stderr).toContain(detected.code);
    }
    const columns = 'kind, series_key, first_bad_night, last_good_night, first_bad_run_id, baseline_median, new_median, ratio, p_value, state, last_night, nights_back';
    const replayed = new Database(replayFile, { readonly: true });
    expect(db.prepare(`SELECT ${columns} FROM regressions ORDER BY fingerprint`).all()).toEqual(replayed.prepare(`SELECT ${columns} FROM regressions ORDER BY fingerprint`).all());
    replayed.close();

    // A third start records nothing and finds nothing new; --redo records a night again.
    const again = JSON.parse((await nightbench(['backfill', ...range, '--json'])).stdout) as { recorded: unknown[]; skipped: string[]; episodesFound: number[] };
    expect(again).toMatchObject({ recorded: [], episodesFound: [] });
    expect(again.skipped).toHaveLength(12);
    await nightbench(['backfill', '--from', '2022-12-12', '--redo', '--no-judge']);
    expect(db.prepare("SELECT count(*) AS n FROM runs WHERE night = '2022-12-12' AND status = 'complete'").get()).toEqual({ n: 2 });
    db.close();
  });
});
