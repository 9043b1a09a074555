import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MachineNight } from '../../src/detect/machine-night.js';
import { openHistory } from '../../src/history/open.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('nightbench-machine-nights-');

describe('machine nights in the history', () => {
  it('keeps one finding per night and suite, replaced when the night is judged again, and reads the machine ones back', () => {
    const store = openHistory(path.join(dir, 'history.sqlite'));
    const quiet: MachineNight = { night: '2026-02-01', suite: '', machine: false, signs: [], judgedSeries: 8, movedSeries: 0, reason: 'no canary judged; 0 of 8 timed series moved slower together' };
    const loaded: MachineNight = { night: '2026-02-02', suite: 'dask', machine: true, signs: ['canary', 'common-mode'], direction: 'slower', canaryChange: 0.62, judgedSeries: 8, movedSeries: 7, reason: 'canary compute_seconds +62.0%; 7 of 8 timed series moved slower together' };
    store.episodes.recordNight([], quiet);
    store.episodes.recordNight([], { ...loaded, reason: 'judged before the late shard' });
    store.episodes.recordNight([], loaded);
    expect(store.episodes.machineNights()).toEqual([quiet, loaded]);
    expect(store.episodes.machineNights({ machineOnly: true })).toEqual([loaded]);
    expect(store.episodes.machineNights({ sinceNight: '2026-02-03' })).toEqual([]);
    store.close();
  });
});
