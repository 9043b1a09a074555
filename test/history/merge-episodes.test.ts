import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { mergeRunsInto } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import { detectEachNight, writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stored history detected up to night `detectedUpTo` (a step on night 8), and a local copy of it. */
function histories(detectedUpTo: number): { stored: string; local: string; history: SyntheticHistory } {
  const dir = mkdtempSync(path.join(tmpdir(), 'nightbench-merge-episodes-'));
  dirs.push(dir);
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
    return store.episodes();
  } finally {
    store.close();
  }
};

describe('merging episodes into a stored history', () => {
  it('keeps what the nightly and triage did to an episode when a history is saved', () => {
    const { stored, local, history } = histories(8);
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[9]!]);
    const [episode] = ours.episodes();
    ours.setEpisodeIssue([episode!.id], 7);
    ours.markEpisodesAccepted([episode!.id]);
    ours.close();

    expect(episodesOf(stored)).toMatchObject([{ state: 'open', lastNight: history.nights[8] }]);
    expect(mergeRunsInto(stored, local).added['regressions']).toBe(2);
    expect(episodesOf(stored)).toMatchObject([{ state: 'accepted', issueNumber: 7, lastNight: history.nights[9] }]);
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
    target.markEpisodesAccepted(target.episodes().map((e) => e.id));
    target.close();
    const ours = openHistory(local);
    detectEachNight(ours, defaultDetectionPolicy, [history.nights[9]!]);
    ours.close();
    expect(episodesOf(local)).toMatchObject([{ state: expect.stringMatching(/^(open|still-regressed)$/), lastNight: history.nights[9] }]);

    mergeRunsInto(stored, local);
    expect(episodesOf(stored)).toMatchObject([{ state: 'accepted' }]);
  });
});
