import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { openDatabase } from '../../src/history/database.js';
import { mergeRunsInto } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import { sqlAll, sqlGet } from '../helpers/sql.js';
import { detectEachNight, writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';


/** A stored history detected up to night `detectedUpTo` (a step on night 8), and a local copy of it. */
function histories(detectedUpTo: number): { stored: string; local: string; history: SyntheticHistory } {
  const dir = tempDir('nightbench-merge-episodes-');
  const [stored, local] = [path.join(dir, 'stored.sqlite'), path.join(dir, 'local.sqlite')];
  const store = openHistory(stored);
  const history = writeSyntheticHistory(store, { seed: 5, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 10, repeats: 5, noise: 0.02, changes: [{ workload: 'sum', metric: 'wall_time', night: 8, factor: 2 }] });
  detectEachNight(store, defaultDetectionPolicy, history.nights.slice(0, detectedUpTo + 1));
  store.close();
  copyFileSync(stored, local);
  return { stored, local, history };
}

const episodesOf = (file: string) => {
  const store = openHistory(file);
  try {
    return store.episodes.episodes();
  } finally {
    store.close();
  }
};

describe('merging episodes into a stored history', () => {
  it('keeps what the nightly and triage did to an episode when a history is saved', () => {
    const { stored, local, history } = histories(8);
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[9]!]);
    const [episode] = ours.episodes.episodes();
    ours.episodes.assignEpisodeIssues(new Map([[episode!.id, 'issue-of-the-range']]));
    // The issue an episode joined is chosen once.
    expect(ours.episodes.assignEpisodeIssues(new Map([[episode!.id, 'another-issue']]))).toBe(0);
    ours.episodes.setEpisodeIssue([episode!.id], 7);
    ours.episodes.markEpisodesAccepted([episode!.id]);
    ours.close();

    expect(episodesOf(stored)).toMatchObject([{ state: 'open', lastNight: history.nights[8] }]);
    expect(mergeRunsInto(stored, local).added['regressions']).toBe(3);
    expect(episodesOf(stored)).toMatchObject([{ state: 'accepted', issueNumber: 7, issueFingerprint: 'issue-of-the-range', lastNight: history.nights[9] }]);
    expect(mergeRunsInto(stored, local).added['regressions']).toBe(0);
  });

  it('adds episodes the stored history lacks, and never takes an older state over a newer one', () => {
    const { stored, local, history } = histories(7);
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[8]!]);
    ours.close();
    expect(episodesOf(stored)).toEqual([]);
    expect(mergeRunsInto(stored, local).added['regressions']).toBe(1);

    const target = openHistory(stored);
    detectEachNight(target, defaultDetectionPolicy, [history.nights[9]!]);
    target.close();
    const advanced = episodesOf(stored);
    expect(advanced).toMatchObject([{ lastNight: history.nights[9] }]);
    expect(mergeRunsInto(stored, local).added['regressions']).toBe(0);
    expect(episodesOf(stored)).toEqual(advanced);
  });

  it('never takes an episode out of a final state, even for a later night', () => {
    const { stored, local, history } = histories(8);
    const target = openHistory(stored);
    target.episodes.markEpisodesAccepted(target.episodes.episodes().map((e) => e.id));
    target.close();
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[9]!]);
    ours.close();
    expect(episodesOf(local)).toMatchObject([{ state: expect.stringMatching(/^(open|still-regressed)$/), lastNight: history.nights[9] }]);

    mergeRunsInto(stored, local);
    expect(episodesOf(stored)).toMatchObject([{ state: 'accepted' }]);
  });
});

describe('merging a bisect of an episode', () => {
  it("points it at the target's own id of the episode it bisected, found by fingerprint", () => {
    const dir = tempDir('nightbench-merge-bisect-');
    const [stored, local] = [path.join(dir, 'stored.sqlite'), path.join(dir, 'local.sqlite')];
    openHistory(stored).close();
    openHistory(local).close();
    // The stored history knows episode "a" as 1; the local one has "b" as 1 and "a" as 2, and bisected "a".
    insertEpisode(stored, 'a');
    insertEpisode(local, 'b');
    insertEpisode(local, 'a');
    const ours = openHistory(local);
    ours.bisects.beginBisect({ id: 'bisect-a', createdAt: '2026-12-03T02:00:00Z', mode: 'bisect', judged: 'metric', episodeId: 2, suite: 's', workload: 'w', metric: 'wall_time', goodCommits: { dask: 'g' }, badCommits: { dask: 'b' }, host: 'h', pid: 1 });
    ours.close();
    mergeRunsInto(stored, local);
    expect(sqlAll(stored, 'SELECT id, fingerprint FROM regressions ORDER BY id')).toEqual([{ id: 1, fingerprint: 'a' }, { id: 2, fingerprint: 'b' }]);
    expect(sqlGet(stored, "SELECT episode_id FROM bisects WHERE id = 'bisect-a'")).toEqual({ episode_id: 1 });
    // Merging again changes nothing.
    mergeRunsInto(stored, local);
    expect(sqlGet(stored, "SELECT episode_id FROM bisects WHERE id = 'bisect-a'")).toEqual({ episode_id: 1 });
  });
});

/** An episode row with only its fingerprint to tell it apart. */
function insertEpisode(file: string, fingerprint: string): void {
  const db = openDatabase(file);
  try {
    db.prepare(
      `INSERT INTO regressions (fingerprint, series_key, suite, workload, workload_version, metric, direction, environment_name, environment_fingerprint, provider, cluster_shape,
         first_bad_night, first_bad_run_id, first_bad_commits, last_good_night, last_good_run_id, last_good_commits, baseline_median, baseline_noise, new_median, ratio, p_value, state, last_night, latest_median)
       VALUES (?, ?, 's', 'w', '1', 'wall_time', 'lower', 'default', 'env', 'local', 'local:2x1:2GiB', '2026-12-02', 'r2', '{}', '2026-12-01', 'r1', '{}', 1, 0.01, 2, 2, 0.001, 'open', '2026-12-02', 2)`,
    ).run(fingerprint, `key-${fingerprint}`);
  } finally {
    db.close();
  }
}
