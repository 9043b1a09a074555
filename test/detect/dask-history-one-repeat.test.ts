import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { detectRegressions } from '../../src/detect/run.js';
import type { NewEpisode } from '../../src/detect/episodes.js';
import { openHistory } from '../../src/history/open.js';
import { decodeFixture, loadHistoryFixture } from '../helpers/history-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * Detection night by night over a real Dask history at ONE repeat a night (issues 31 item 4 and
 * 23 item 4), recorded on 2026-12-04 19:04-19:23 UTC by
 *   npx tsx bench/record-dask-history.ts --out DIR --first-night 2023-01-01 --last-night 2023-01-18 \
 *     --planted-night 2023-01-12 --repeats 1 --workload array_reduction,shuffle,canary \
 *     --loaded-night 2023-01-06 --loaded-night 2023-01-09 --loaded-night 2023-01-15 --recent-first 2023-01-05
 * on the 2-core machine while four other engineers' jobs ran (load average 7-8), the recording at
 * nice -15. Measured by bench/dask-history-truth.ts: the planted commit (323853f, sleeps in every
 * random chunk) makes array_reduction's task time (`compute_seconds`) +195% and its wall time +16%
 * against the real history's same nights; night-to-night noise of one repeat is 36% (task time)
 * and 19% (wall time) for array_reduction, 9-14% for shuffle. The machine's load also moved the
 * baseline by itself: array_reduction's task time ran 0.52-0.66 s on 2023-01-01..04 and 0.82-1.35 s
 * on 2023-01-05..11 (the two stretches were recorded at different times), no commit involved.
 */
const dir = tempDir('nb-dask-one-repeat-');

const plantedCommit = '323853f';
const loadedNights = ['2023-01-06', '2023-01-09'];

interface Replayed {
  nights: string[];
  opened: (NewEpisode & { night: string })[];
  machineNights: string[];
  /** The tip of dask each night was run at. */
  tips: Map<string, string | undefined>;
}

function replay(name: string): Replayed {
  const fixture = decodeFixture(readFileSync(new URL(`../fixtures/dask-history/${name}.json.gz`, import.meta.url)));
  const store = openHistory(path.join(dir, `${name}.sqlite`));
  loadHistoryFixture(store, fixture);
  const nights = [...new Set(fixture.runs.map((r) => r.night))].sort();
  const opened: Replayed['opened'] = [];
  const machineNights: string[] = [];
  for (const night of nights) {
    const report = detectRegressions(store, policy, { now: night });
    if (report.machine?.machine) machineNights.push(night);
    for (const change of report.changes) if (change.action === 'open') opened.push({ ...change.episode, night });
  }
  store.close();
  return { nights, opened, machineNights, tips: new Map(fixture.runs.map((r) => [r.night, r.commits.dask])) };
}

const label = (e: NewEpisode & { night: string }) => `${e.identity.workload} ${e.identity.metric} ${e.kind} from ${e.firstBad.night}`;

describe('detection over a recorded Dask history at one repeat a night', () => {
  const real = replay('one-repeat-real');
  const planted = replay('one-repeat-planted');

  it('opens no regression on the real history, and marks the nights loaded on purpose as the machine', () => {
    expect(real.nights).toHaveLength(18);
    expect(real.opened.filter((e) => e.kind === 'regression').map(label)).toEqual([]);
    for (const night of loadedNights) {
      expect(real.machineNights).toContain(night);
      expect(planted.machineNights).toContain(night);
    }
  });

  // array_reduction's task time runs 2.0-3.2 s on all seven planted nights against 0.52-1.35 s
  // on every baseline night. The baseline holds the machine's own step (0.52-0.66 s, then 0.82-1.35 s):
  // read as nights that wander together, its allowance nearly tripled the shift's standard error
  // and nothing opened in seven nights (z 3.3). Measured around its two levels (`baselineStep` in
  // src/detect/evidence.ts), the shift stands 3.3, 3.8, 4.2 and 4.5 standard errors on the third
  // to sixth planted nights, and opens on the sixth against the 4.3 the persistence path asks.
  // Issue 31 asks for the third night at 8% noise; this series' noise is 18% within a level (36%
  // across the machine's step), and eleven baseline nights estimate it on few degrees of freedom.
  // The suspect range is the change night's 99% credible interval (src/detect/suspect-range.ts):
  // the first planted night measured +78% against its week at this series' noise, sure of the
  // old level's end (2023-01-11) but not sure enough of being at the new level, so the range
  // reaches one night further and calls 2023-01-12 uncertain.
  it('opens array_reduction task time on the planted history within its planted nights, with a range that starts at the planted commit (issue 31)', () => {
    const regressions = planted.opened.filter((e) => e.kind === 'regression' && e.identity.workload === 'array_reduction' && e.identity.metric === 'compute_seconds');
    expect(regressions.map(label)).toHaveLength(1);
    const [episode] = regressions;
    expect(episode!.night <= '2023-01-18').toBe(true);
    // The planted commit is the tip of dask on 2023-01-12, the first planted night: the range
    // begins right before it and holds it.
    expect(episode!.lastGood.night).toBe('2023-01-11');
    expect(['2023-01-12', '2023-01-13']).toContain(episode!.firstBad.night);
    const tipOnPlantedNight = planted.tips.get('2023-01-12');
    expect(tipOnPlantedNight).toMatch(new RegExp(`^${plantedCommit}`));
  });

  it('opens nothing else on the planted history than the real one does', () => {
    const others = planted.opened.filter((e) => !(e.identity.workload === 'array_reduction' && e.identity.metric === 'compute_seconds'));
    expect(others.filter((e) => e.kind === 'regression').map(label)).toEqual([]);
  });
});
