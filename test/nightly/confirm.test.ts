/**
 * github.confirm through the nightly's issue step (detectAndPublish) on the fake GitHub, with a
 * real history: a slowdown planted on night 8, its rerun played by the simulated runner.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmationOf } from '../../src/bisect/confirm.js';
import { rerun } from '../../src/bisect/search.js';
import { simulatedPort } from '../../src/bisect/simulated.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import type { ConfirmPort } from '../../src/issues/confirm.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { Log } from '../../src/log.js';
import { detectAndPublish } from '../../src/nightly/issues.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const log: Log = { info: () => {}, debug: () => {}, warn: () => {} };

describe('github.confirm in the nightly issue step', () => {
  let dir: string;
  let store: HistoryStore;
  let history: SyntheticHistory;
  let fake: FakeGitHub;

  beforeEach(async () => {
    dir = tempDir('nightbench-confirm-');
    store = openHistory(path.join(dir, 'history.sqlite'));
    history = writeSyntheticHistory(store, {
      seed: 7, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 11, repeats: 5, noise: 0.02,
      changes: [{ workload: 'sum', metric: 'wall_time', night: 8, factor: 2 }],
    });
    fake = await new FakeGitHub().start();
    fake.addRepository('acme/perf');
    vi.stubEnv('GITHUB_TOKEN', 't0ken');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    store.close();
    await fake.stop();
  });

  const loaded = (confirm: 'off' | 'rerun'): LoadedConfig => ({
    config: configSchema.parse({ github: { repository: 'acme/perf', apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0, confirm } }),
    baseDir: dir,
  });

  /** A port whose rerun finds `step` between last good and first bad, counting its calls. */
  function simulatedConfirm(step: number): ConfirmPort & { calls: number } {
    const port = Object.assign(
      async () => {
        port.calls++;
        const measure = simulatedPort({ base: 4, steps: { 1: step }, cv: 0.02, seed: port.calls });
        const result = await rerun(measure, { mode: 'metric', last: 1, priorNoise: 0.02 });
        return confirmationOf(result, { ratio: 2, identity: store.episodes.episodes()[0]!.identity, unit: 's' }, measure.measured.length * 20);
      },
      { calls: 0 },
    );
    return port;
  }

  async function nights(from: number, to: number, confirm: 'off' | 'rerun', port: ConfirmPort) {
    for (let i = from; i <= to; i++) await detectAndPublish(loaded(confirm), store, log, { night: history.nights[i], confirm: port });
  }

  it('files nothing for an episode its rerun does not reproduce, keeps it unconfirmed, and never reruns it', async () => {
    const port = simulatedConfirm(0);
    await nights(0, 10, 'rerun', port);
    expect(fake.issues('acme/perf')).toEqual([]);
    expect(port.calls).toBe(1);
    expect(store.episodes.episodes().map((e) => [e.state, e.issueNumber])).toEqual([['unconfirmed', undefined]]);
  });

  it('files a reproduced episode with the rerun figures', async () => {
    const port = simulatedConfirm(1);
    await nights(0, 9, 'rerun', port);
    const [issue] = fake.issues('acme/perf');
    expect(issue!.body).toMatch(/Confirmed before filing: last good against first bad rerun interleaved, `sum` wall_time, 12 repeats \(4\.0 cluster minutes\): x[12]\.\d{3} \(95% interval \d\.\d{3}\.\.\d\.\d{3}\), Mann-Whitney p = [\d.e-]+\./);
    expect(store.episodes.episodes().map((e) => [e.state, e.issueNumber])).toEqual([['still-regressed', 1]]);
    expect(port.calls, 'a filed issue is commented on, never confirmed again').toBe(1);
  });

  it('files at once, with no rerun, when confirm is off (the default)', async () => {
    const port = simulatedConfirm(0);
    await nights(0, 8, 'off', port);
    expect(fake.issues('acme/perf')).toHaveLength(1);
    expect(port.calls).toBe(0);
  });
});
