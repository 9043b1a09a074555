import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy, loadEpisodes, markEpisodesAccepted, setEpisodeIssue } from '../../src/detect/index.js';
import { mergeDatabase } from '../../src/history/merge.js';
import { openHistory } from '../../src/history/open.js';
import { detectEachNight, writeSyntheticHistory } from '../helpers/synthetic-history.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stored history with one open episode, and a local copy that went further. */
function histories() {
  const dir = mkdtempSync(path.join(tmpdir(), 'nightbench-merge-episodes-'));
  dirs.push(dir);
  const [stored, local] = [path.join(dir, 'stored.sqlite'), path.join(dir, 'local.sqlite')];
  const store = openHistory(stored);
  const history = writeSyntheticHistory(store, { seed: 5, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 10, repeats: 5, noise: 0.02, changes: [{ workload: 'sum', metric: 'wall_time', night: 8, factor: 2 }] });
  detectEachNight(store, defaultDetectionPolicy, history.nights.slice(0, 9));
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  copyFileSync(stored, local);
  return { stored, local, history };
}

describe('merging episodes', () => {
  it('keeps what the nightly and triage did to an episode when a history is saved', () => {
    const { stored, local, history } = histories();
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[9]!]);
    const [episode] = loadEpisodes(ours.db);
    setEpisodeIssue(ours.db, [episode!.id], 7);
    markEpisodesAccepted(ours.db, [episode!.id]);
    ours.close();

    const target = openHistory(stored);
    expect(loadEpisodes(target.db)).toMatchObject([{ state: 'open', lastNight: history.nights[8] }]);
    expect(mergeDatabase(target.db, local).added['regressions']).toBe(2);
    expect(loadEpisodes(target.db)).toMatchObject([{ state: 'accepted', issueNumber: 7, lastNight: history.nights[9] }]);
    expect(mergeDatabase(target.db, local).added['regressions']).toBe(0);
    target.close();
  });

  it('never takes an older state over a newer one, and adds episodes the target lacks', () => {
    const { stored, local, history } = histories();
    const target = openHistory(stored);
    detectEachNight(target, defaultDetectionPolicy, [history.nights[9]!]);
    target.db.prepare('DELETE FROM regressions').run();
    expect(mergeDatabase(target.db, local).added['regressions']).toBe(1);
    detectEachNight(target, defaultDetectionPolicy, [history.nights[9]!]);
    const advanced = loadEpisodes(target.db);
    expect(advanced).toMatchObject([{ lastNight: history.nights[9] }]);
    expect(mergeDatabase(target.db, local).added['regressions']).toBe(0);
    expect(loadEpisodes(target.db)).toEqual(advanced);
    target.close();
  });
});
