import { describe, expect, it } from 'vitest';
import { episodeFingerprint, planEpisodes } from '../../src/detect/episodes.js';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { judgeNight } from '../../src/detect/run.js';
import { groupSeries } from '../../src/detect/series.js';
import { nightAt, runNights, seriesRows } from './helpers.js';

const quiet = { nights: 40, repeats: 3, cv: 0.03 };

describe('planEpisodes', () => {
  it('keeps a persisting step one episode, still regressed after the trailing week absorbed it', () => {
    const run = runNights(seriesRows({ ...quiet, seed: 21, steps: [{ from: 10, factor: 1.2 }] }), policy, 3, 30);
    expect(run.opened).toBe(1);
    const [episode] = run.episodes;
    expect(episode).toMatchObject({ state: 'still-regressed', lastNight: nightAt(30), nightsBack: 0 });
    expect(episode!.firstBad).toEqual({ night: nightAt(10), runId: '21-run-10', commits: { 'dask/dask': 'sha-dask-10', 'dask/distributed': 'sha-distributed-10' } });
    expect(episode!.lastGood.night).toBe(nightAt(9));
    expect(episode!.fingerprint).toBe(episodeFingerprint(episode!.seriesKey, nightAt(10)));
    expect(episode!.ratio).toBeGreaterThan(1.1);
    // The verdicts themselves went back to stable once the window held only the new level.
    expect(run.verdicts.at(-1)![0]!.kind).toBe('stable');
    expect(run.changes[7]!.map((c) => c.action)).toEqual(['open']);
    expect(run.changes[8]!).toMatchObject([{ action: 'update', from: 'open', to: 'still-regressed' }]);
  });

  it('recovers only after two nights in a row back within noise of the pre-regression level', () => {
    const rows = seriesRows({ ...quiet, seed: 22, steps: [{ from: 10, factor: 1.2, until: 15 }] });
    const afterOneNight = runNights(rows, policy, 3, 15);
    expect(afterOneNight.episodes).toMatchObject([{ state: 'still-regressed', nightsBack: 1 }]);
    const afterTwo = runNights(rows, policy, 3, 25);
    expect(afterTwo.opened).toBe(1);
    expect(afterTwo.episodes).toMatchObject([{ state: 'recovered', recoveredNight: nightAt(16), lastNight: nightAt(16), nightsBack: 2 }]);
    // One good night between bad ones starts the count again.
    const interrupted = seriesRows({ ...quiet, seed: 22, steps: [{ from: 10, factor: 1.2 }, { from: 14, until: 15, factor: 1 / 1.2 }] });
    expect(runNights(interrupted, policy, 3, 25).episodes).toMatchObject([{ state: 'still-regressed', nightsBack: 0 }]);
  });

  it('opens a regression when an improvement is lost, back at the old level', () => {
    // 25% faster over nights 20-31, then back where it was: the speed-up was lost on night 32.
    const rows = seriesRows({ ...quiet, nights: 50, seed: 26, steps: [{ from: 20, factor: 1 / 1.25, until: 32 }] });
    const run = runNights(rows, policy, 3, 49);
    expect(run.episodes.map((e) => [e.kind, e.firstBad.night, e.state])).toEqual([
      ['improvement', nightAt(20), 'recovered'],
      ['regression', nightAt(32), 'still-regressed'],
    ]);
    expect(run.episodes[1]!.lastGood.night).toBe(nightAt(31));
  });

  it('takes a fix that lands a little past the old level for the recovery, and one past it by the threshold for an improvement too', () => {
    // +20% over nights 10-19, then the fix: 7% faster than before it (beyond the recovery's noise band, within the threshold).
    const fixed = runNights(seriesRows({ ...quiet, seed: 27, steps: [{ from: 10, factor: 1.2, until: 20 }, { from: 20, factor: 0.93 }] }), policy, 3, 39);
    expect(fixed.episodes.map((e) => [e.kind, e.firstBad.night, e.state])).toEqual([['regression', nightAt(10), 'recovered']]);
    // The same fix 15% faster than before it is an improvement of its own as well.
    const faster = runNights(seriesRows({ ...quiet, seed: 27, steps: [{ from: 10, factor: 1.2, until: 20 }, { from: 20, factor: 0.85 }] }), policy, 3, 39);
    expect(faster.episodes.map((e) => [e.kind, e.firstBad.night, e.state])).toEqual([
      ['regression', nightAt(10), 'recovered'],
      ['improvement', nightAt(20), 'still-regressed'],
    ]);
  });

  it('does not flap when noise moves a step right at the threshold in and out of it', () => {
    // On night 20: one night alone may open a change of the threshold once the series has 20 nights.
    const run = runNights(seriesRows({ ...quiet, seed: 24, steps: [{ from: 20, factor: 1.1 }] }), policy, 3, 39);
    const kinds = run.verdicts.slice(17, 24).map((verdicts) => verdicts[0]!.kind);
    expect(kinds).toContain('regression');
    expect(kinds).toContain('stable');
    expect(run.opened).toBe(1);
    expect(run.episodes).toMatchObject([{ state: 'still-regressed' }]);
  });

  it('opens a second episode for a second step once the first is absorbed', () => {
    const run = runNights(seriesRows({ ...quiet, seed: 24, steps: [{ from: 10, factor: 1.2 }, { from: 25, factor: 1.2 }] }), policy, 3, 30);
    expect(run.episodes.map((e) => [e.firstBad.night, e.state])).toEqual([
      [nightAt(10), 'still-regressed'],
      [nightAt(25), 'still-regressed'],
    ]);
  });

  it('leaves an accepted episode accepted and compares later nights with the accepted level', () => {
    const rows = seriesRows({ ...quiet, seed: 25, steps: [{ from: 10, factor: 1.2 }] });
    const found = runNights(rows, policy, 3, 11);
    const accepted = found.episodes.map((e) => ({ ...e, state: 'accepted' as const }));
    const later = runNights(rows, policy, 12, 30, accepted);
    expect(later.opened).toBe(0);
    expect(later.episodes).toMatchObject([{ state: 'accepted', lastNight: nightAt(11) }]);
    const kinds = later.verdicts.map((verdicts) => verdicts[0]!.kind);
    expect(kinds[0]).toBe('insufficient-baseline');
    expect(kinds.slice(1)).toEqual(kinds.slice(1).map(() => 'stable'));
  });

  it('changes nothing when the same night is planned again', () => {
    const rows = seriesRows({ ...quiet, seed: 21, steps: [{ from: 10, factor: 1.2 }] });
    const run = runNights(rows, policy, 3, 12);
    const verdicts = judgeNight(groupSeries(rows), run.episodes, policy, nightAt(12));
    expect(planEpisodes(verdicts, run.episodes, policy)).toEqual([]);
    expect(planEpisodes(judgeNight(groupSeries(rows), run.episodes, policy, nightAt(8)), run.episodes, policy)).toEqual([]);
  });
});
