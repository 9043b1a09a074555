/**
 * Suite-wide moves through a replay of a real SQLite history (ten workloads, a new commit every
 * night, so no night is the machine's): every workload slowed for two nights files nothing, every
 * workload slowed for good files one issue three nights later, listing them all.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { replayPorts } from '../../src/replay/ports.js';
import { runReplay, type ReplayOutcome } from '../../src/replay/run-replay.js';
import { writeSyntheticHistory, type PlantedChange, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

const workloads = Array.from({ length: 10 }, (_, i) => `w${i}`);
const blipNight = 30;
const stepNight = 60;

describe('a replay of suite-wide moves', () => {
  const dir = tempDir('nb-suite-wide-');
  let store: HistoryStore;
  let history: SyntheticHistory;
  let outcome: ReplayOutcome;
  beforeAll(async () => {
    store = openHistory(path.join(dir, 'history.sqlite'));
    const everyWorkload = (change: Omit<PlantedChange, 'workload' | 'metric'>) => workloads.map((workload) => ({ workload, metric: 'wall_time', ...change }));
    history = writeSyntheticHistory(store, {
      seed: 12, workloads, metrics: [{ name: 'wall_time', unit: 's' }], nights: 90, repeats: 3, noise: 0.02, samplesForLastNights: 0,
      changes: [...everyWorkload({ night: blipNight, factor: 1.5, recoversAt: blipNight + 2 }), ...everyWorkload({ night: stepNight, factor: 1.5 })],
    });
    const loaded = { config: configSchema.parse({}), baseDir: dir };
    outcome = await runReplay(replayPorts(loaded, store, silentLog, path.join(dir, 'issues')), { from: history.nights[0]!, to: history.nights.at(-1)! });
  });
  afterAll(() => {
    store.close();
  });

  it('records both nights as suite-wide moves of the code, not the machine', () => {
    const findings = store.episodes.machineNights({}).filter((m) => m.night === history.nights[blipNight] || m.night === history.nights[stepNight]);
    expect(findings.map((m) => [m.machine, m.movedSeries])).toEqual([[false, 10], [false, 10]]);
  });

  it('files one issue for the step that stayed, after the wait, with every series, and none for the blip', () => {
    expect(outcome.issues).toHaveLength(1);
    const [issue] = outcome.issues;
    expect(issue).toMatchObject({ firstBadNight: history.nights[stepNight], openedNight: history.nights[stepNight + 3], transient: false });
    expect(issue!.series.map((s) => s.workload).sort()).toEqual(workloads);
    // The blip's episodes were found and recovered: only the issue was not filed.
    expect(store.episodes.episodes().filter((e) => e.firstBad.night === history.nights[blipNight]).map((e) => e.state)).toEqual(workloads.map(() => 'recovered'));
  });
});
