/**
 * Two writers publishing the same night at once (two nightlies, with no concurrency group to
 * serialise them): both find no issue and both open one; the first opened stays, the twin is
 * closed as its duplicate, and both histories record the one issue.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { detectRegressions } from '../../src/detect/index.js';
import { publishIssues } from '../../src/issues/publish.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { writeSyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const repository = 'acme/perf';
let dir: string;
let fake: FakeGitHub;
let stores: HistoryStore[];
let night: string;
let loaded: LoadedConfig;

beforeEach(async () => {
  dir = tempDir('nightbench-race-');
  const first = openHistory(path.join(dir, 'a.sqlite'));
  const history = writeSyntheticHistory(first, {
    seed: 3, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 10, repeats: 5, noise: 0.02, firstNight: '2026-11-20',
    changes: [{ workload: 'sum', metric: 'wall_time', night: 8, factor: 2 }],
  });
  first.close();
  copyFileSync(path.join(dir, 'a.sqlite'), path.join(dir, 'b.sqlite'));
  stores = ['a.sqlite', 'b.sqlite'].map((file) => openHistory(path.join(dir, file)));
  night = history.nights[8]!;
  fake = await new FakeGitHub().start();
  fake.addRepository(repository);
  loaded = { config: configSchema.parse({ github: { repository, apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }), baseDir: dir };
});

afterEach(async () => {
  for (const store of stores) store.close();
  await fake.stop();
});

it('two writers opening the same issue at once leave one open issue, the twin closed as its duplicate', async () => {
  const publish = (store: HistoryStore) => publishIssues({ report: detectRegressions(store, loaded.config.detection, { now: night }), store, loaded, env: { GITHUB_TOKEN: 't0ken' }, log: silentLog });
  const results = await Promise.all(stores.map(publish));
  expect(results.map((r) => r.failed)).toEqual([0, 0]);
  const issues = fake.issues(repository);
  expect(issues).toHaveLength(2);
  expect(issues.filter((i) => i.state === 'open').map((i) => i.number)).toEqual([1]);
  expect(issues[1]).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
  expect(issues[1]!.comments.at(-1)!.body).toContain('Duplicate of #1');
  for (const store of stores) expect(store.episodes.episodes().map((e) => e.issueNumber)).toEqual([1]);

  // The next night finds the one issue, not its closed twin.
  const next = await publish(stores[0]!);
  expect(next.actions.every((a) => !('issue' in a) || a.issue?.number !== 2)).toBe(true);
  expect(fake.issues(repository)).toHaveLength(2);
});
