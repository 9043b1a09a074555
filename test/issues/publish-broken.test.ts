import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { publishBroken } from '../../src/issues/publish-broken.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { newRun, okRepeat } from '../history/fixtures.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('publishBroken', () => {
  let dir: string;
  let store: HistoryStore;
  let fake: FakeGitHub;
  const env = { GITHUB_TOKEN: 't0ken' };

  beforeEach(async () => {
    dir = tempDir('nb-broken-');
    store = openHistory(path.join(dir, 'history.sqlite'));
    fake = await new FakeGitHub().start();
    fake.addRepository('acme/perf');
  });
  afterEach(async () => {
    store.close();
    await fake.stop();
  });

  const loaded = (): LoadedConfig => ({ config: configSchema.parse({ github: { repository: 'acme/perf', apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }), baseDir: dir });
  const publish = (night: string) => publishBroken({ store, loaded: loaded(), night, env, log: silentLog });

  /** One nightly night of workload `w`: passing, failing for the code's sake, or only for the machine's. */
  function recordNight(night: string, how: 'passes' | 'fails' | 'machine') {
    const run = newRun({ night });
    store.runs.beginRun(run);
    const failure = how === 'fails' ? ({ class: 'code', cause: 'the workload failed' } as const) : ({ class: 'infrastructure', cause: 'the cluster did not start or could not be reset' } as const);
    store.runs.recordRepeat(how === 'passes' ? okRepeat(run.id, 'w', 1, 1) : { ...okRepeat(run.id, 'w', 1, 1), status: 'failed', error: `${how}: boom`, failure, metrics: [], samples: [] });
    store.runs.finishRun(run.id, { status: how === 'passes' ? 'complete' : 'failed', finishedAt: `${night}T03:00:00Z` });
  }

  it('opens from the very first night, never for the machine, and closes on a later passing night after a skipped one', async () => {
    recordNight('2026-11-01', 'fails');
    expect((await publish('2026-11-01')).actions.map((a) => a.kind)).toEqual(['open']);
    const [issue] = fake.issues('acme/perf');
    expect(issue!.title).toBe('Broken: w (dask) fails from its first night (2026-11-01)');
    recordNight('2026-11-02', 'machine');
    expect((await publish('2026-11-02')).actions, 'a night only the machine failed is no outcome').toEqual([]);
    recordNight('2026-11-03', 'passes');
    // 2026-11-03's issue step never ran; 2026-11-04 passes too and closes it.
    recordNight('2026-11-04', 'passes');
    expect((await publish('2026-11-04')).actions.map((a) => a.kind)).toEqual(['close']);
    expect(issue!.state).toBe('closed');
    expect(issue!.comments.at(-1)!.body).toContain('Passes again on 2026-11-04');
  });

  it('writes the text to files and counts the failure when GitHub keeps failing', async () => {
    recordNight('2026-11-01', 'passes');
    recordNight('2026-11-02', 'fails');
    fake.failNext(50);
    const result = await publish('2026-11-02');
    expect(result.failed).toBe(1);
    expect(result.error).toMatch(/502|Server Error|GitHub/);
    expect(fake.issues('acme/perf')).toEqual([]);
    expect(readdirSync(path.join(dir, 'reports/issues')).length).toBeGreaterThan(0);
  });
});
