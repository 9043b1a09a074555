import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy, detectionSchema } from '../../src/detect/policy.js';
import { describeDetectable } from '../../src/detect/judge.js';
import { groupSeries } from '../../src/detect/series.js';
import { judgeNight } from '../../src/detect/run.js';
import { nightAt, runNights, seriesRows } from './helpers.js';
import type { Episode } from '../../src/detect/episodes.js';

const stepNight = 30;

/** The night (index) an episode first opened and the first bad night it named, over nights `from`..last. */
function firstEpisode(spec: Parameters<typeof seriesRows>[0], last: number, from = 0) {
  const run = runNights(seriesRows(spec), policy, from, last);
  const openedAt = run.changes.findIndex((changes) => changes.some((c) => c.action === 'open'));
  const opened = run.changes[openedAt]?.find((c) => c.action === 'open');
  return { run, openedAt, episode: opened?.action === 'open' ? opened.episode : undefined };
}

describe('the persistence path', () => {
  it('judges the night that opened an episode the same when it is judged again (summary, pages), although its first bad night was set back', () => {
    const rows = seriesRows({ seed: 5, nights: stepNight + 3, repeats: 3, cv: 0.05, steps: [{ from: stepNight, factor: 1.15 }] });
    const { run, openedAt } = firstEpisode({ seed: 5, nights: stepNight + 3, repeats: 3, cv: 0.05, steps: [{ from: stepNight, factor: 1.15 }] }, stepNight + 2);
    expect(openedAt).toBeGreaterThan(stepNight);
    const [episode] = run.episodes;
    expect(episode!.firstBad.night < nightAt(openedAt)).toBe(true);
    const asStoredThatNight = [{ ...episode!, state: 'open' as const, lastNight: nightAt(openedAt) }];
    const [again] = judgeNight(groupSeries(rows), asStoredThatNight, policy, nightAt(openedAt));
    expect(again!.kind).toBe('regression');
  });

  it.each([
    { repeats: 1, cv: 0.03, factor: 1.15, seed: 3 },
    { repeats: 3, cv: 0.05, factor: 1.15, seed: 5 },
    { repeats: 3, cv: 0.1, factor: 1.3, seed: 5 },
    { repeats: 1, cv: 0.02, factor: 0.88, seed: 6 },
  ])('catches a moderate step ($factor at CV $cv, $repeats repeats) within 3 nights and its range holds the step night', ({ repeats, cv, factor, seed }) => {
    const { openedAt, episode } = firstEpisode({ seed, nights: stepNight + 3, repeats, cv, steps: [{ from: stepNight, factor }] }, stepNight + 2);
    expect(openedAt).toBeGreaterThanOrEqual(stepNight);
    expect(episode!.kind).toBe(factor > 1 ? 'regression' : 'improvement');
    expect(episode!.lastGood.night < nightAt(stepNight) && episode!.firstBad.night >= nightAt(stepNight)).toBe(true);
  });

  it('opens a persistent +27% step at 8% nightly noise and one repeat within its first 3 nights in most series (issue 31: it was absorbed unjudged)', () => {
    let found = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { openedAt, episode } = firstEpisode({ seed: 300 + seed, nights: stepNight + 3, repeats: 1, cv: 0.08, steps: [{ from: stepNight, factor: 1.27 }] }, stepNight + 2, stepNight);
      if (openedAt >= 0 && episode!.kind === 'regression') found++;
    }
    // The limit a two-sample test allows at the same false alarms is about 90% (bench/detect-quality.ts).
    expect(found).toBeGreaterThanOrEqual(12);
  });

  it('reads the nights with their repeats where the nights spread no more than the repeats imply: +30% at CV 10% and 3 repeats found within 3 nights', () => {
    // Two of the bench's series (bench/synthetic-suite.ts, stepRows 15 and 33) whose strongest split
    // stood under persistZ on the nights' 31 degrees of freedom alone, above it on theirs and the repeats'.
    for (const seed of [90_198, 90_432]) {
      const { openedAt, episode } = firstEpisode({ seed, nights: stepNight + 3, repeats: 3, cv: 0.1, steps: [{ from: stepNight, factor: 1.3 }] }, stepNight + 2, stepNight);
      expect(openedAt).toBeGreaterThanOrEqual(0);
      expect(episode).toMatchObject({ kind: 'regression' });
      expect(episode!.firstBad.night >= nightAt(stepNight - 2)).toBe(true);
    }
  });

  it('reads a night\'s level from its repeats as an M-estimate where the nights spread no more than the repeats imply: +30% at CV 10% and 3 repeats found within 3 nights', () => {
    // Two of the bench's series (bench/synthetic-suite.ts, stepRows 10 and 38) whose strongest split
    // stood under persistZ with the nights' medians, above it with their Huber estimates.
    for (const seed of [90_133, 90_497]) {
      const { openedAt, episode } = firstEpisode({ seed, nights: stepNight + 3, repeats: 3, cv: 0.1, steps: [{ from: stepNight, factor: 1.3 }] }, stepNight + 2, stepNight);
      expect(openedAt).toBeGreaterThanOrEqual(0);
      expect(episode).toMatchObject({ kind: 'regression' });
      expect(episode!.lastGood.night < nightAt(stepNight) && episode!.firstBad.night >= nightAt(stepNight - 2)).toBe(true);
    }
  });

  it('never absorbs a step unjudged: +15% at 5% noise and one repeat opens within 28 nights in every series, its range holding the step night', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { openedAt, episode } = firstEpisode({ seed: 400 + seed, nights: stepNight + 28, repeats: 1, cv: 0.05, steps: [{ from: stepNight, factor: 1.15 }] }, stepNight + 27, stepNight);
      expect(openedAt).toBeGreaterThanOrEqual(0);
      expect(episode!.lastGood.night < nightAt(stepNight) && episode!.firstBad.night >= nightAt(stepNight)).toBe(true);
    }
  });

  it('looks at a stable series again with the results before the lookback: +15% at CV 10% and one repeat found within 28 nights in more series, the culprit in each new range', () => {
    const finds = (earlierBaseline: boolean) => {
      const found = new Map<number, Episode>();
      for (let seed = 1; seed <= 40; seed++) {
        const run = runNights(seriesRows({ seed: 500 + seed, nights: stepNight + 28, repeats: 1, cv: 0.1, steps: [{ from: stepNight, factor: 1.15 }] }), detectionSchema.parse({ earlierBaseline }), stepNight, stepNight + 27);
        if (run.episodes[0]) found.set(seed, run.episodes[0]);
      }
      return found;
    };
    const holdsCulprit = (e: Episode) => e.lastGood.night < nightAt(stepNight) && e.firstBad.night >= nightAt(stepNight);
    const oneLook = finds(false);
    const twoLooks = finds(true);
    // Measured: 17 and 30 of 40 (23 with 10 results read); each of the 13 only the second look found holds the step night.
    expect(oneLook.size).toBeLessThan(20);
    expect(twoLooks.size).toBeGreaterThanOrEqual(27);
    const secondLookOnly = [...twoLooks].filter(([seed]) => !oneLook.has(seed)).map(([, e]) => e);
    expect(secondLookOnly.length).toBeGreaterThanOrEqual(10);
    expect(secondLookOnly.filter(holdsCulprit).length).toBeGreaterThanOrEqual(secondLookOnly.length - 1);
    expect(secondLookOnly.every((e) => e.kind === 'regression')).toBe(true);
  });

  it('opens no improvement on the second look: -15% at CV 10% and one repeat is found in the same series with it and without', () => {
    const finds = (earlierBaseline: boolean) => {
      const found: string[] = [];
      for (let seed = 1; seed <= 20; seed++) {
        const run = runNights(seriesRows({ seed: 700 + seed, nights: stepNight + 28, repeats: 1, cv: 0.1, steps: [{ from: stepNight, factor: 0.85 }] }), detectionSchema.parse({ earlierBaseline }), stepNight, stepNight + 27);
        found.push(...run.episodes.map((e) => `${seed} ${e.kind} ${e.firstBad.night}`));
      }
      return found;
    };
    const withSecondLook = finds(true);
    expect(withSecondLook.length).toBeGreaterThan(0);
    expect(withSecondLook).toEqual(finds(false));
  });

  it.each([
    { repeats: 1, what: 'one night 50% slower', outliers: [{ night: stepNight, repeat: 1, factor: 1.5 }] },
    { repeats: 3, what: 'one night 8% slower in every repeat (below the fast path)', outliers: [1, 2, 3].map((repeat) => ({ night: stepNight, repeat, factor: 1.08 })) },
    { repeats: 3, what: 'one repeat 3 times slower', outliers: [{ night: stepNight, repeat: 2, factor: 3 }] },
  ])('never opens an episode on one outlier night at $repeats repeats, over 20 series: $what', ({ repeats, outliers }) => {
    for (let seed = 1; seed <= 20; seed++) {
      const { run } = firstEpisode({ seed: 100 + seed, nights: stepNight + 8, repeats, cv: 0.05, outliers }, stepNight + 7);
      expect(run.opened).toBe(0);
    }
  });

  it('opens an improvement at persistZ + improvementMarginZ, a night or two later than a regression, with the same first bad night', () => {
    const spec = { seed: 7132, nights: stepNight + 15, repeats: 3, cv: 0.1, steps: [{ from: stepNight, factor: 0.75 }] };
    const held = firstEpisode(spec, stepNight + 14);
    const atPersistZ = runNights(seriesRows(spec), detectionSchema.parse({ improvementMarginZ: 0 }), 0, stepNight + 14);
    const openedAtPersistZ = atPersistZ.changes.findIndex((changes) => changes.some((c) => c.action === 'open'));
    expect(held.episode).toMatchObject({ kind: 'improvement', firstBad: { night: nightAt(stepNight) } });
    expect(atPersistZ.episodes[0]).toMatchObject({ kind: 'improvement', firstBad: { night: nightAt(stepNight) } });
    expect(held.openedAt).toBeGreaterThan(openedAtPersistZ);
    // The nights between, the improvement is held: the verdicts name its first night.
    expect(held.run.verdicts[openedAtPersistZ + 1]![0]!.heldImprovementFrom).toBe(nightAt(stepNight));
  });

  it('judges a slowdown right after a held speed-up against the faster level: found on its night (the real Dask recording\'s planted regression)', () => {
    // 28% faster from the step night (a faster host), then +30% three nights later (the code):
    // against the level before the speed-up, the slowdown is no change at all.
    const slowNight = stepNight + 3;
    const { run, openedAt, episode } = firstEpisode({ seed: 7132, nights: slowNight + 1, repeats: 3, cv: 0.1, steps: [{ from: stepNight, factor: 0.75 }, { from: slowNight, factor: 1.3 }] }, slowNight);
    expect(openedAt).toBe(slowNight);
    expect(episode).toMatchObject({ kind: 'regression', firstBad: { night: nightAt(slowNight) } });
    expect(run.episodes).toHaveLength(1);
    expect(run.verdicts[slowNight]![0]).toMatchObject({ kind: 'regression', path: 'fast', heldImprovementFrom: nightAt(stepNight) });
  });

  it('does not alert again in the week after a step: detection re-baselines from the first bad night', () => {
    const { run } = firstEpisode({ seed: 8, nights: 60, repeats: 3, cv: 0.05, steps: [{ from: stepNight, factor: 1.3 }] }, 59);
    expect(run.opened).toBe(1);
    expect(run.episodes[0]).toMatchObject({ state: 'still-regressed', firstBad: { night: nightAt(stepNight) } });
  });

  it('a step backed out after a few nights recovers its episode instead of opening an improvement', () => {
    const { run } = firstEpisode({ seed: 9, nights: 50, repeats: 3, cv: 0.03, steps: [{ from: stepNight, factor: 1.3, until: stepNight + 5 }] }, 49);
    expect(run.episodes.map((e) => [e.kind, e.state])).toEqual([['regression', 'recovered']]);
  });

  it('names the p of the test that proved a persistent step, and measures what the series sees within its levels, not across the step', () => {
    const spec = { seed: 11, nights: stepNight + 6, repeats: 1, cv: 0.1, steps: [{ from: stepNight, factor: 2 }] };
    const { run, openedAt, episode } = firstEpisode(spec, stepNight + 5, stepNight);
    expect(episode).toMatchObject({ kind: 'regression', firstBad: { night: nightAt(stepNight) } });
    const verdict = run.verdicts[openedAt]![0]!;
    expect(verdict.path).toBe('persistent');
    // The nights ranked against the baseline's (at most 1 / C(33, 3) for 3 nights above 30), not
    // the one-night test a single repeat cannot pass (it gave p = 1 beside a doubling).
    expect(episode!.pValue).toBe(verdict.pValue);
    expect(episode!.pValue).toBeLessThan(0.001);
    // The nights since the level judged last hold the step: their whole spread is about 40%, the
    // noise within each level 10%. What the series sees in 3 nights follows the 10% (about 54%;
    // measured across the step, over 300%).
    expect(verdict.detectable!.persistNoise).toBeLessThan(0.15);
    expect(verdict.detectable!.persistent).toBeLessThan(0.6);
  });

  it('says what a series can catch at its settings, and that one night alone is not enough at 1 repeat', () => {
    const one = runNights(seriesRows({ seed: 10, nights: 31, repeats: 1, cv: 0.1 }), policy, 30, 30).verdicts[0]![0]!;
    expect(one.kind).toBe('stable');
    expect(one.reason).toContain('one night alone is not enough');
    expect(one.detectable).toMatchObject({ repeats: 1, nights: 3, firstNight: undefined });
    expect(describeDetectable(one.detectable!)).toMatch(/^1 repeat, \d+% nightly noise: changes of \d+% or more within 3 nights, none on their first night alone$/);
    // Noisy enough that noise, not the 10% threshold, sets both figures.
    const three = runNights(seriesRows({ seed: 10, nights: 31, repeats: 3, cv: 0.08 }), policy, 30, 30).verdicts[0]![0]!;
    expect(three.detectable!.firstNight).toBeGreaterThan(three.detectable!.persistent);
  });
});
