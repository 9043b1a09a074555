/**
 * A `/nightbench false-alarm` verdict recorded in the history, then detection night after night
 * through the store: a later step as large as the false one opens no new episode, where the
 * same history without the verdict opens one.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy, detectRegressions } from '../../src/detect/index.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let store: HistoryStore;
let history: SyntheticHistory;

beforeEach(() => {
  dir = tempDir('nightbench-false-alarm-');
  store = openHistory(path.join(dir, 'history.sqlite'));
  // The same +25% step twice, three nights each: on night 20 (triaged), then on night 45, when
  // the 20 nights since the first recovered are enough for a 3-night shift to rank apart.
  history = writeSyntheticHistory(store, {
    seed: 5, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 50, repeats: 5, noise: 0.02, firstNight: '2026-09-01',
    changes: [20, 45].map((night) => ({ workload: 'sum', metric: 'wall_time', night, factor: 1.25, recoversAt: night + 3 })),
  });
});

afterEach(() => {
  store.close();
});

/** Detection on nights `from`..`to`; the episodes it opened. */
function detect(from: number, to: number): number {
  let opened = 0;
  for (let i = from; i <= to; i++) opened += detectRegressions(store, defaultDetectionPolicy, { now: history.nights[i] }).openedIds.length;
  return opened;
}

/** What `runTriage` stores for `/nightbench false-alarm` on the episodes' issue. */
function falseAlarm(): void {
  const episodes = store.episodes.episodes();
  store.triage.recordTriageEvent({
    key: 'comment:1', issueNumber: 1, episodes: episodes.map((e) => e.fingerprint), command: 'false-alarm', author: 'mia',
    issueOpenedAt: `${history.nights[20]}T06:00:00Z`, at: `${history.nights[21]}T10:00:00Z`,
  });
  store.episodes.markEpisodesAccepted(episodes.map((e) => e.id));
}

describe('a false-alarm verdict in detection', () => {
  it('the step opens an episode; after /nightbench false-alarm the same step later opens none, with the raised noise reported', () => {
    expect(detect(0, 21)).toBe(1);
    expect(store.episodes.episodes()[0]).toMatchObject({ firstBad: { night: history.nights[20] } });
    falseAlarm();
    expect(detect(22, 49)).toBe(0);
    const verdict = detectRegressions(store, defaultDetectionPolicy, { now: history.nights[45], dryRun: true }).verdicts[0]!;
    expect(verdict.kind).toBe('stable');
    expect(verdict.noise).toBeCloseTo(Math.log(store.triage.falseAlarmEpisodes()[0]!.ratio) / (defaultDetectionPolicy.persistZ / Math.sqrt(defaultDetectionPolicy.persistNights)), 10);
    expect(verdict.reason).toContain('after a false alarm');
  });

  it('without a verdict, the episode recovers and the same step later opens a new one', () => {
    expect(detect(0, 49)).toBe(2);
    expect(store.episodes.episodes().map((e) => [e.kind, e.firstBad.night, e.state])).toEqual([
      ['regression', history.nights[20], 'recovered'],
      ['regression', history.nights[45], 'recovered'],
    ]);
  });
});
