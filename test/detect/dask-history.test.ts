import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { detectRegressions } from '../../src/detect/run.js';
import type { NewEpisode } from '../../src/detect/episodes.js';
import { openHistory } from '../../src/history/open.js';
import { decodeFixture, loadHistoryFixture } from '../helpers/history-fixture.js';

/**
 * Detection night by night over the real Dask histories recorded by bench/record-dask-history.ts
 * (33 nights, 2022-12-19..2023-01-20, dask + distributed at the nightly's tip), rebuilt from
 * fixtures (bench/export-history-fixture.ts): what `nightbench detect` does each night.
 *
 * What these recordings hold, measured by bench/dask-history-truth.ts:
 * - planted.sqlite tests, from 2023-01-12 on, a history with one extra commit (323853f "Tune random
 *   chunk generation") that sleeps in every random chunk array_reduction generates: its task time
 *   (`compute_seconds`) is +142% against real.sqlite's same nights (paired), its wall time +19.5%;
 * - from the night of 2023-01-07 on, wall and CPU time of both workloads stand 30-40% higher in
 *   both histories (identical up to 2023-01-11): the machine the recording shared got busier. The
 *   nights 2023-01-06 to 2023-01-09 all test the same commits (dask f463fcf, distributed 9d8e18c),
 *   so the episodes of that step are level shifts whose suspect range is empty: no commit caused them.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'nb-dask-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plantedCommit = '323853f';
const machineStep = { from: '2023-01-07', to: '2023-01-09' };

function replay(name: string): { nights: string[]; opened: (NewEpisode & { night: string })[] } {
  const fixture = decodeFixture(readFileSync(new URL(`../fixtures/dask-history/${name}.json.gz`, import.meta.url)));
  const store = openHistory(path.join(dir, `${name}.sqlite`));
  loadHistoryFixture(store, fixture);
  const nights = [...new Set(fixture.runs.map((r) => r.night))].sort();
  const opened: (NewEpisode & { night: string })[] = [];
  for (const night of nights) {
    for (const change of detectRegressions(store, policy, { now: night }).changes) if (change.action === 'open') opened.push({ ...change.episode, night });
  }
  store.close();
  return { nights, opened };
}

const label = (e: NewEpisode & { night: string }) => `${e.identity.workload} ${e.identity.metric} ${e.kind} from ${e.firstBad.night}`;
const atMachineStep = (e: NewEpisode) => e.firstBad.night >= machineStep.from && e.firstBad.night <= machineStep.to;

describe('detection over the recorded Dask histories', () => {
  it('on the real history, opens regression episodes only at the machine step, and none on task time', () => {
    const { nights, opened } = replay('real');
    expect(nights).toHaveLength(33);
    const regressions = opened.filter((e) => e.kind === 'regression');
    expect(regressions.filter((e) => !atMachineStep(e)).map(label)).toEqual([]);
    expect(regressions.filter((e) => e.identity.metric === 'compute_seconds').map(label)).toEqual([]);
    // The machine's step is told apart by its range: no repository changed between its nights.
    for (const episode of regressions) expect(episode.firstBad.commits).toEqual(episode.lastGood.commits);
  });

  it('on the planted history, opens array_reduction task time on the planted night with the planted commit as its range, and nothing else new', () => {
    const { opened } = replay('planted');
    const planted = opened.filter((e) => e.kind === 'regression' && !atMachineStep(e));
    expect(planted.map(label)).toEqual(['array_reduction compute_seconds regression from 2023-01-12']);
    expect(planted[0]).toMatchObject({ night: '2023-01-12', lastGood: { night: '2023-01-11' } });
    expect(planted[0]!.firstBad.commits.dask).toMatch(new RegExp(`^${plantedCommit}`));
    expect(opened.filter((e) => e.identity.workload === 'shuffle' && e.kind === 'regression' && !atMachineStep(e)).map(label)).toEqual([]);
  });
});
