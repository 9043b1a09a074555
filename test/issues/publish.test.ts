import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema, type RawConfig } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { detectRegressions } from '../../src/detect/index.js';
import { noRegressionIssue } from '../../src/issues/improvements.js';
import { publishIssues } from '../../src/issues/publish.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { Log } from '../../src/log.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const log: Log & { warnings: string[]; infos: string[] } = { warnings: [], infos: [], info: (m) => log.infos.push(m), debug: () => {}, warn: (m) => log.warnings.push(m) };

describe('publishIssues', () => {
  let dir: string;
  let store: HistoryStore;
  let history: SyntheticHistory;
  let fake: FakeGitHub;

  beforeEach(async () => {
    dir = tempDir('nightbench-publish-');
    store = openHistory(path.join(dir, 'history.sqlite'));
    // Three workloads slow down 2x on night 8 (one range), and come back on night 10.
    history = writeSyntheticHistory(store, {
      seed: 7, workloads: ['sum', 'shuffle', 'join'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 12, repeats: 5, noise: 0.02,
      changes: ['sum', 'shuffle', 'join'].map((workload) => ({ workload, metric: 'wall_time', night: 8, factor: 2, recoversAt: 10 })),
    });
    fake = await new FakeGitHub().start();
    fake.addRepository('acme/perf');
    log.warnings.length = 0;
    log.infos.length = 0;
  });
  afterEach(async () => {
    store.close();
    await fake.stop();
  });

  function loaded(github: RawConfig['github'] = { repository: 'acme/perf' }): LoadedConfig {
    const fast = { apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 };
    return { config: configSchema.parse({ github: { ...fast, ...github } }), baseDir: dir };
  }

  async function night(index: number, config = loaded(), env: Record<string, string | undefined> = { GITHUB_TOKEN: 't0ken' }) {
    const report = detectRegressions(store, config.config.detection, { now: history.nights[index] });
    return publishIssues({ report, store, loaded: config, env, log });
  }

  async function nightsUpTo(last: number, config?: LoadedConfig) {
    for (let i = 0; i < last; i++) await night(i, config);
    return night(last, config);
  }

  it('opens one issue for three workloads on one range, comments while it persists, closes on recovery', async () => {
    const opened = await nightsUpTo(8);
    expect(opened.actions.map((a) => a.kind)).toEqual(['open']);
    const [issue] = fake.issues('acme/perf');
    expect(fake.issues('acme/perf')).toHaveLength(1);
    // Every repository whose commits are in the range is named.
    const since = history.commits[8]!.map((c) => `${c.repo} ${c.sha.slice(0, 7)}`).join(', ');
    expect(issue!.title).toBe(`Performance regression: 3 workloads slower since ${since} (${history.nights[8]})`);
    expect(issue!.labels).toEqual(['performance', 'regression', 'dask']);
    expect(issue!.body).toContain(`<!-- nightbench:fingerprint=${opened.actions[0]!.group.fingerprint} -->`);
    // Each series' reach, from the night's verdicts: on the 9th night of the history, not known yet.
    for (const workload of ['sum', 'shuffle', 'join']) expect(issue!.body).toContain(`- \`${workload}\` wall_time: too new at its level to tell what it can detect (known from its 17th night there)`);
    expect(new Set(store.episodes.episodes().map((e) => e.issueNumber))).toEqual(new Set([1]));

    const persisted = await night(9);
    expect(persisted.actions.map((a) => a.kind)).toEqual(['comment']);
    expect(issue!.comments).toHaveLength(1);

    const rerun = await night(9);
    expect(rerun.actions.map((a) => a.kind)).toEqual(['skip']);
    expect(issue!.comments).toHaveLength(1);

    await night(10);
    const recovered = await night(11);
    expect(recovered.actions.map((a) => a.kind)).toEqual(['close']);
    expect(issue!.state).toBe('closed');
    expect(issue!.comments.at(-1)!.body).toContain('Recovered on');
    expect(fake.issues('acme/perf')).toHaveLength(1);
  });

  it('closes on a later night an issue whose close GitHub refused on the night of its recovery', async () => {
    await nightsUpTo(10);
    fake.failOn('PATCH', /^\/repos\/acme\/perf\/issues\/\d+$/, 2);
    const refused = await night(11, loaded({ repository: 'acme/perf', retries: 1 }));
    expect(refused.failed).toBe(1);
    expect(fake.issues('acme/perf')[0]!.state).toBe('open');
    // The night after the history's last: no new values, the episodes stay recovered, and the issue still closes.
    const report = detectRegressions(store, loaded().config.detection, { now: '2026-01-13' });
    const later = await publishIssues({ report, store, loaded: loaded(), env: { GITHUB_TOKEN: 't0ken' }, log });
    expect(later.actions.map((a) => a.kind)).toEqual(['close']);
    expect(fake.issues('acme/perf')[0]!.state).toBe('closed');
    expect(fake.issues('acme/perf')).toHaveLength(1);
  });

  it('does not reopen an issue a maintainer closed, and marks its episodes accepted', async () => {
    await nightsUpTo(8);
    fake.closeByMaintainer('acme/perf', 1);
    const next = await night(9);
    expect(next.actions.map((a) => a.kind)).toEqual(['accept']);
    expect(fake.issues('acme/perf')).toHaveLength(1);
    expect(fake.issues('acme/perf')[0]!.comments).toHaveLength(0);
    expect(store.episodes.episodes().map((e) => e.state)).toEqual(['accepted', 'accepted', 'accepted']);
  });

  it('opens an issue of its own for a series of a recovered and closed issue\'s range that is found regressed after the close', async () => {
    await nightsUpTo(10);
    await night(11);
    expect(fake.issues('acme/perf').map((i) => i.state)).toEqual(['closed']);
    // A late find on a fourth series of the same change: the same range, and still regressed.
    const sum = store.episodes.episodes().find((e) => e.identity.workload === 'sum')!;
    const { id: _id, issueNumber: _issue, issueFingerprint: _joined, recoveredNight: _recovered, ...found } = sum;
    const identity = { ...sum.identity, workload: 'groupby' };
    store.episodes.recordNight([{ action: 'open', episode: { ...found, identity, seriesKey: sum.seriesKey.replace('"sum"', '"groupby"'), fingerprint: 'groupby-late', state: 'still-regressed', lastNight: history.nights[11]! } }], undefined);
    const later = await night(11);
    expect(later.actions.map((a) => [a.kind, a.group.series.map((s) => s.workload).join()])).toEqual([['open', 'groupby'], ['skip', 'join,shuffle,sum']]);
    expect(fake.issues('acme/perf').map((i) => i.state)).toEqual(['closed', 'open']);
    expect(store.episodes.episodes().find((e) => e.identity.workload === 'groupby')!.issueNumber).toBe(2);
  });

  it('survives a transient 502 and a rate limit', async () => {
    for (let i = 0; i < 8; i++) await night(i);
    fake.failNext(1, 'bad-gateway').failNext(1, 'rate-limit');
    const result = await night(8);
    expect(result.failed).toBe(0);
    expect(fake.issues('acme/perf')).toHaveLength(1);
  });

  it('writes the text to reports/issues and reports failure when GitHub keeps failing; the episodes stay', async () => {
    for (let i = 0; i < 8; i++) await night(i);
    fake.failNext(100, 'bad-gateway');
    const result = await night(8, loaded({ repository: 'acme/perf', retries: 1 }));
    expect(result.failed).toBe(1);
    expect(result.error).toMatch(/GitHub answered 502 after retrying/);
    const files = readdirSync(path.join(dir, 'reports', 'issues'));
    expect(files).toEqual([`${result.actions[0]!.group.fingerprint}.md`]);
    expect(readFileSync(path.join(dir, 'reports', 'issues', files[0]!), 'utf8')).toContain('Performance regression: 3 workloads slower');
    expect(store.episodes.episodes()).toHaveLength(3);
  });

  it('names a repository GitHub does not know (404) and falls back to files', async () => {
    for (let i = 0; i < 8; i++) await night(i);
    const result = await night(8, loaded({ repository: 'acme/missing' }));
    expect(result.failed).toBe(1);
    expect(result.error).toBe('finding issues in acme/missing: repository acme/missing not found (404): check github.repository and that the token can see it');
    expect(readdirSync(path.join(dir, 'reports', 'issues'))).toHaveLength(1);
    expect(store.episodes.episodes()).toHaveLength(3);
  });

  it('without a token writes files, says why, and updates them the next nights', async () => {
    for (let i = 0; i < 8; i++) await night(i, loaded(), {});
    const opened = await night(8, loaded(), {});
    expect(opened.tracker).toBe(`files in ${path.join(dir, 'reports', 'issues')}`);
    expect(opened.failed).toBe(0);
    expect(log.warnings).toContain(`github.repository is acme/perf but GITHUB_TOKEN is not set: writing issues as files to ${path.join('reports', 'issues')} instead`);
    expect(fake.requests).toHaveLength(0);
    expect((await night(9, loaded(), {})).actions.map((a) => a.kind)).toEqual(['comment']);
    expect((await night(9, loaded(), {})).actions.map((a) => a.kind)).toEqual(['skip']);
    await night(10, loaded(), {});
    expect((await night(11, loaded(), {})).actions.map((a) => a.kind)).toEqual(['close']);
    const text = readFileSync(path.join(dir, 'reports', 'issues', `${opened.actions[0]!.group.fingerprint}.md`), 'utf8');
    // Opened on night 8, commented on 9 and 10 (recovery takes two nights back), closed on 11.
    expect(text.match(/<!-- nightbench:night=/g)).toHaveLength(4);
    expect(text).toContain('<!-- nightbench:state=closed -->');
  });

  it('a dry run plans without changing GitHub or the episodes', async () => {
    for (let i = 0; i < 8; i++) await night(i);
    const report = detectRegressions(store, loaded().config.detection, { now: history.nights[8], dryRun: true });
    const plan = await publishIssues({ report, store, loaded: loaded(), env: { GITHUB_TOKEN: 't' }, log, dryRun: true });
    expect(plan.actions.map((a) => a.kind)).toEqual(['open']);
    expect(fake.writes()).toHaveLength(0);
    expect(store.episodes.episodes()).toHaveLength(0);
  });

  it('files a change that one series shows a night late (it failed on the night) on the issue another series opened, and keeps it there', async () => {
    // sum and join double on night 8; shuffle doubles too, but failed on night 8, so its range
    // runs from night 7 to night 9 and overlaps theirs (night 7 to 8).
    store.close();
    store = openHistory(path.join(dir, 'late.sqlite'));
    history = writeSyntheticHistory(store, {
      seed: 7, workloads: ['sum', 'shuffle', 'join'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 12, repeats: 5, noise: 0.02,
      changes: ['sum', 'shuffle', 'join'].map((workload) => ({ workload, metric: 'wall_time', night: 8, factor: 2 })),
      failures: [{ workload: 'shuffle', nights: [8] }],
    });
    const opened = await nightsUpTo(8);
    const regressionIssue = opened.actions.find((a) => a.kind === 'open' && a.group.series.some((s) => s.workload === 'sum'))!;
    expect(regressionIssue.group.series.map((s) => s.workload).sort()).toEqual(['join', 'sum']);
    const late = await night(9);
    const joined = late.actions.filter((a) => a.group.series.some((s) => s.workload === 'shuffle' && s.metric === 'wall_time'));
    expect(joined.map((a) => [a.kind, a.group.fingerprint])).toEqual([['comment', regressionIssue.group.fingerprint]]);
    const shuffle = store.episodes.episodes().find((e) => e.identity.workload === 'shuffle' && e.identity.metric === 'wall_time')!;
    expect([shuffle.lastGood.night, shuffle.firstBad.night]).toEqual([history.nights[7], history.nights[9]]);
    expect(shuffle.issueFingerprint).toBe(regressionIssue.group.fingerprint);
    // No second regression issue for the same change, on this night or the next.
    await night(10);
    const titles = fake.issues('acme/perf').map((i) => i.title).filter((t) => t.startsWith('Performance regression'));
    expect(titles).toHaveLength(1);
  });

  describe('github.improvements: comment', () => {
    beforeEach(() => {
      // sum doubles on night 8 (an issue), then drops to 0.8 of its old level on night 14: the
      // improvement may be the fix. join only improves, on night 14: no issue to note it on.
      store.close();
      store = openHistory(path.join(dir, 'improvements.sqlite'));
      history = writeSyntheticHistory(store, {
        seed: 11, workloads: ['sum', 'join'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 16, repeats: 5, noise: 0.02,
        changes: [{ workload: 'sum', metric: 'wall_time', night: 8, factor: 2 }, { workload: 'sum', metric: 'wall_time', night: 14, factor: 0.4 }, { workload: 'join', metric: 'wall_time', night: 14, factor: 0.5 }],
      });
    });
    const commenting = () => loaded({ repository: 'acme/perf', improvements: 'comment' });

    it("notes an improvement once on the issue of the series' latest regression, opens no issue for it, and logs one it cannot note", async () => {
      await nightsUpTo(13, commenting());
      const [issue] = fake.issues('acme/perf');
      expect(fake.issues('acme/perf')).toHaveLength(1);
      const before = issue!.comments.length;

      const improved = await night(14, commenting());
      expect(improved.actions.filter((a) => a.kind !== 'comment').map((a) => [a.group.series[0]!.workload, a.kind, 'issue' in a ? a.issue?.number : undefined]).sort()).toEqual([
        ['join', 'skip', undefined],
        ['sum', 'note', 1],
      ]);
      expect(fake.issues('acme/perf')).toHaveLength(1);
      const notes = issue!.comments.slice(before).filter((c) => c.body.includes('nightbench sees an improvement'));
      expect(notes).toHaveLength(1);
      expect(notes[0]!.body).toMatch(new RegExp(`^nightbench sees an improvement of -[\\d.]+% on \`sum\` wall_time since ${history.nights[14]} \\(last good night ${history.nights[13]}\\), range dask/dask \`[0-9a-f]{7}\\.\\.[0-9a-f]{7}\``, 'm'));
      expect(notes[0]!.body).toContain(': this may be the fix.');
      expect(log.infos).toContain(`improvement of join wall_time since ${history.nights[14]}: ${noRegressionIssue}`);
      // The improvement is not tied to the regression's issue: a triage command there is about the regression.
      expect(store.episodes.episodes().filter((e) => e.kind === 'improvement').map((e) => e.issueNumber)).toEqual([undefined, undefined]);

      // A rerun of the night, and the next night, note nothing again.
      await night(14, commenting());
      const next = await night(15, commenting());
      expect(next.actions.filter((a) => a.group.series[0]!.workload === 'sum' && a.kind === 'skip').map((a) => a.kind === 'skip' && a.reason)).toEqual(['improvement already noted']);
      expect(issue!.comments.filter((c) => c.body.includes('nightbench sees an improvement'))).toHaveLength(1);
    });

    it('posts nothing about improvements when off (the default)', async () => {
      await nightsUpTo(13);
      const comments = fake.issues('acme/perf')[0]!.comments.length;
      const improved = await night(14);
      expect(improved.actions.some((a) => a.kind === 'note')).toBe(false);
      expect(fake.issues('acme/perf')[0]!.comments.slice(comments).some((c) => c.body.includes('improvement'))).toBe(false);
    });
  });
});

describe('publishIssues for a workload removed from the suite', () => {
  it('closes its issue once the series has no result in the whole lookback, and files nothing for it after', async () => {
    const dir = tempDir('nightbench-retired-');
    const store = openHistory(path.join(dir, 'history.sqlite'));
    const fake = await new FakeGitHub().start();
    try {
      fake.addRepository('acme/perf');
      // shuffle slows down 2x on night 12, is removed from the suite on night 16; the lookback is 30 results.
      const history = writeSyntheticHistory(store, {
        seed: 3, workloads: ['sum', 'shuffle'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 48, repeats: 3, noise: 0.02,
        changes: [{ workload: 'shuffle', metric: 'wall_time', night: 12, factor: 2 }], removed: [{ workload: 'shuffle', fromNight: 16 }],
      });
      const config: LoadedConfig = { config: configSchema.parse({ github: { repository: 'acme/perf', apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }), baseDir: dir };
      const kinds: string[][] = [];
      for (const night of history.nights) {
        const report = detectRegressions(store, config.config.detection, { now: night });
        kinds.push((await publishIssues({ report, store, loaded: config, env: { GITHUB_TOKEN: 't0ken' }, log })).actions.map((a) => a.kind));
      }
      const [issue] = fake.issues('acme/perf');
      expect(kinds[12]).toEqual(['open']);
      // Still regressed while it runs, then nothing to say while it does not.
      expect(kinds.slice(13, 16)).toEqual([['comment'], ['comment'], ['comment']]);
      expect(kinds.slice(16, 46).flat().filter((kind) => kind !== 'skip')).toEqual([]);
      // Night 46 is the first whose 30-night lookback holds none of its nights (its last, 15, is 31 nights back).
      expect(kinds[46]).toEqual(['close']);
      expect(issue!.state).toBe('closed');
      expect(issue!.comments.at(-1)!.body).toContain(`No longer measured on ${history.nights[46]}: the series has no result in the nights detection reads (the workload removed or renamed, its environment retired, or failing since). Closing;`);
      expect(issue!.comments.at(-1)!.body).toContain('| no longer measured |');
      expect(kinds[47]).toEqual(['skip']);
      expect(store.episodes.episodes().map((e) => [e.identity.workload, e.state, e.lastNight])).toEqual([['shuffle', 'retired', history.nights[46]]]);
      expect(fake.issues('acme/perf')).toHaveLength(1);
    } finally {
      store.close();
      await fake.stop();
    }
  });
});
