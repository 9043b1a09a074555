import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { assessNight, detectRegressions, judgedNight } from '../../src/detect/run.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

let store: HistoryStore;
let history: SyntheticHistory;

beforeEach(() => {
  store = openHistory(path.join(tempDir('nb-judged-night-'), 'history.sqlite'));
  history = writeSyntheticHistory(store, {
    seed: 41, workloads: ['shuffle', 'groupby', 'join'], nights: 20, repeats: 3, samplesForLastNights: 0,
    changes: [{ workload: 'groupby', metric: 'wall_time', night: 17, factor: 1.4 }],
    failures: [{ workload: 'join', nights: [19] }],
  });
});

afterEach(() => store.close());

const latest = () => history.nights.at(-1)!;
const fresh = () => assessNight(store, policy);

describe('the night detection judged, read back instead of judged again', () => {
  it('gives exactly the verdicts and machine finding a new judgement gives, without judging', () => {
    const report = detectRegressions(store, policy);
    expect(report.verdicts.some((v) => v.kind === 'regression')).toBe(true);
    const read = judgedNight(store, policy);
    expect(read.stored).toBe(true);
    expect(read.night).toBe(latest());
    // Judged again after the night's episodes were stored, detection says the same (run.ts):
    // what was stored is what a dry run would show, down to every number.
    const again = fresh();
    expect(read.verdicts).toEqual(again.verdicts);
    expect(read.counts).toEqual(again.counts);
    expect(read.machine).toEqual(again.machine);
    expect(judgedNight(store, policy, { now: latest() }).stored).toBe(true);
  });

  it('judges again once anything detection reads was written: an accepted episode, a false alarm, a rerun of the night', () => {
    detectRegressions(store, policy);
    const run = history.runIds['local:2x1:2GiB']!.at(-1)!;
    // An issue number changes no verdict: the stored night still holds.
    const episode = store.episodes.episodes()[0]!;
    store.episodes.setEpisodeIssue([episode.id], 7);
    expect(judgedNight(store, policy).stored).toBe(true);

    store.episodes.markEpisodesAccepted([episode.id]);
    const afterAccept = judgedNight(store, policy);
    expect(afterAccept.stored).toBe(false);
    expect(afterAccept.verdicts).toEqual(fresh().verdicts);

    detectRegressions(store, policy);
    expect(judgedNight(store, policy).stored).toBe(true);
    store.triage.recordTriageEvent({ key: 'comment:1', issueNumber: 7, episodes: [episode.fingerprint], command: 'false-alarm', author: 'maintainer', issueOpenedAt: `${latest()}T06:00:00Z`, at: `${latest()}T07:00:00Z` });
    expect(judgedNight(store, policy).stored).toBe(false);

    detectRegressions(store, policy);
    expect(judgedNight(store, policy).stored).toBe(true);
    store.runs.recordRepeat({ runId: run, workload: 'shuffle', repeat: 4, workloadVersion: '1', status: 'ok', startedAt: `${latest()}T02:30:00Z`, finishedAt: `${latest()}T02:31:00Z`, metrics: [{ metric: 'wall_time', value: 99, unit: 's' }], samples: [] });
    expect(judgedNight(store, policy).stored).toBe(false);
    expect(judgedNight(store, policy).verdicts).toEqual(fresh().verdicts);
  });

  it('judges again under another policy, for another night, or when the history changed while detection judged', () => {
    detectRegressions(store, policy);
    expect(judgedNight(store, { ...policy, threshold: 0.2 }).stored).toBe(false);
    expect(judgedNight(store, policy, { now: history.nights[18] }).stored).toBe(false);
    expect(judgedNight(store, policy, { suite: 'dask' }).stored).toBe(false);

    // Judging an older night (a replay, a backfill) stores no verdicts of its own, and its episode
    // changes make the latest night's stale.
    detectRegressions(store, policy, { now: history.nights[18] });
    detectRegressions(store, policy);
    expect(judgedNight(store, policy).stored).toBe(true);

    // Another writer between detection's reads and its write: the night's verdicts are dropped.
    const stale = store.episodes.historyVersion() - 1;
    store.episodes.recordNight([], undefined, { readVersion: stale, night: { suite: '', night: latest(), policy: 'x', verdicts: '[]', machine: null }, at: 'now' });
    expect(store.episodes.judgedNight('')).toBeUndefined();
    expect(judgedNight(store, policy).stored).toBe(false);
  });

  it('drops the verdicts of a judgement a repeat was recorded during, though an earlier repeat had already made the stored night stale', () => {
    detectRegressions(store, policy);
    const run = history.runIds['local:2x1:2GiB']!.at(-1)!;
    const repeat = (n: number) => store.runs.recordRepeat({ runId: run, workload: 'shuffle', repeat: n, workloadVersion: '1', status: 'ok', startedAt: `${latest()}T02:30:00Z`, finishedAt: `${latest()}T02:31:00Z`, metrics: [{ metric: 'wall_time', value: 99, unit: 's' }], samples: [] });
    // The first repeat advances the version; the second tells no one anything and leaves it.
    repeat(4);
    const afterFirst = store.episodes.historyVersion();
    expect(judgedNight(store, policy).stored).toBe(false);
    // Detection took the version (afterFirst) before judging: a repeat recorded meanwhile moves it.
    repeat(5);
    store.episodes.recordNight([], undefined, { readVersion: afterFirst, night: { suite: '', night: latest(), policy: 'x', verdicts: '[]', machine: null }, at: 'now' });
    expect(store.episodes.judgedNight('')).toBeUndefined();
    // Repeats recorded with no version taken since the last one advanced it leave it as it is.
    const taken = store.episodes.historyVersion();
    repeat(6);
    repeat(7);
    expect(store.episodes.historyVersion()).toBe(taken + 1);
  });
});
