/**
 * The machine or the code through the nightly's issue step (detectAndPublish) on the fake GitHub,
 * with a real history: the machine loaded on two nights (every workload's wall time +60%, the
 * canary's too), a slowdown planted on a normal night and one planted on a loaded night.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { Log } from '../../src/log.js';
import { detectAndPublish } from '../../src/nightly/issues.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { writeSyntheticHistory, type PlantedChange, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const log: Log = { info: () => {}, debug: () => {}, warn: () => {} };
const workloads = ['canary', 'groupby', 'join', 'shuffle', 'sum'];
const loadedNights = [14, 20];

describe('machine nights in the nightly issue step', () => {
  let dir: string;
  let store: HistoryStore;
  let history: SyntheticHistory;
  let fake: FakeGitHub;
  /** Issue titles by the night they were filed. */
  const filed = new Map<number, string[]>();

  beforeAll(async () => {
    dir = tempDir('nightbench-machine-');
    store = openHistory(path.join(dir, 'history.sqlite'));
    const load: PlantedChange[] = loadedNights.flatMap((night) => workloads.map((workload) => ({ workload, metric: 'wall_time', night, factor: 1.6, recoversAt: night + 1 })));
    history = writeSyntheticHistory(store, {
      seed: 11, workloads, metrics: [{ name: 'wall_time', unit: 's' }, { name: 'cpu_time', unit: 's' }], nights: 24, repeats: 3, noise: 0.02,
      changes: [...load, { workload: 'sum', metric: 'wall_time', night: 17, factor: 1.5 }, { workload: 'join', metric: 'wall_time', night: 20, factor: 1.4 }],
    });
    fake = await new FakeGitHub().start();
    fake.addRepository('acme/perf');
    vi.stubEnv('GITHUB_TOKEN', 't0ken');
    const loaded: LoadedConfig = { config: configSchema.parse({ github: { repository: 'acme/perf', apiUrl: fake.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }), baseDir: dir };
    for (let i = 0; i < history.nights.length; i++) {
      const before = fake.issues('acme/perf').length;
      await detectAndPublish(loaded, store, log, { night: history.nights[i] });
      filed.set(i, fake.issues('acme/perf').slice(before).map((issue) => issue.body));
    }
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    store.close();
    await fake.stop();
  });

  it('records the loaded nights as machine nights, by the canary', () => {
    const machine = store.episodes.machineNights({ machineOnly: true });
    expect(machine.map((m) => m.night)).toEqual(loadedNights.map((i) => history.nights[i]));
    expect(machine.every((m) => m.signs.includes('canary') && m.direction === 'slower')).toBe(true);
  });

  it('files no issue for the load alone and none for the canary', () => {
    const bodies = [...filed.values()].flat();
    expect(bodies.some((body) => body.includes('`canary`'))).toBe(false);
    expect(filed.get(14)).toEqual([]);
    expect(filed.get(15)).toEqual([]);
    for (const workload of ['groupby', 'shuffle']) expect(bodies.some((body) => body.includes(`\`${workload}\``))).toBe(false);
  });

  it('files a slowdown of a normal night that night, and one that began on a loaded night on its second night, with only what outlasted the load', () => {
    expect(filed.get(17)).toHaveLength(1);
    expect(filed.get(17)![0]).toContain('`sum`');
    expect(filed.get(20)).toEqual([]);
    expect(filed.get(21)).toHaveLength(1);
    const join = filed.get(21)![0]!;
    expect(join).toContain('`join`');
    for (const workload of ['groupby', 'shuffle', 'sum']) expect(join).not.toContain(`\`${workload}\``);
    expect(fake.issues('acme/perf')).toHaveLength(2);
    // The load's episodes recovered unfiled: nothing claims them, so they stay no level of their series.
    const loadEpisodes = store.episodes.episodes().filter((e) => loadedNights.map((i) => history.nights[i]).includes(e.firstBad.night) && e.identity.workload !== 'join');
    expect(loadEpisodes.map((e) => [e.state, e.issueNumber])).toEqual(loadEpisodes.map(() => ['recovered', undefined]));
  });
});
