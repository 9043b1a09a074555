import { describe, expect, it } from 'vitest';
import { belowThreshold, episodeGateStandardErrors, judgedLevelStart, knownBelowStandardErrors, rankStepNeeded, shiftRankAlpha, shiftRanksApart, strongestShift, type ShiftOptions } from '../../src/detect/evidence.js';
import { createRandom, standardNormal } from '../../src/stats/index.js';

const options: ShiftOptions = { minBaseline: 7, maxBaseline: 30, minNights: 3, clip: 3, noiseFloor: 0 };
/** A young series: its first `minBaseline` nights could not be judged. */
const young: ShiftOptions = { ...options, unjudgedNights: 7 };

/** Log nightly levels: `levels[i]` plus normal noise of `noise`, seeded. */
function noisy(levels: readonly number[], noise: number, seed: number): number[] {
  const random = createRandom(seed);
  return levels.map((level) => level + noise * standardNormal(random));
}
const steps = (...parts: [nights: number, ratio: number][]) => parts.flatMap(([nights, ratio]) => Array<number>(nights).fill(Math.log(ratio)));

describe('the level judged last (issue 31: nothing is absorbed unjudged)', () => {
  it('moves the baseline to a significant step known to be below the threshold: +4% at 1% noise', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const levels = noisy(steps([20, 1], [20, 1.04]), 0.01, seed);
      expect(judgedLevelStart(levels, options, 4.3, 0.1).from).toBe(20);
    }
  });

  it('keeps the baseline before a step of the threshold, however many nights it took to prove: +10% at 5% noise', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const levels = noisy(steps([25, 1], [20, 1.1]), 0.05, seed);
      expect(judgedLevelStart(levels, options, 4.3, 0.1).from).toBe(0);
    }
  });

  it('keeps every night when nothing moved', () => {
    expect(judgedLevelStart(noisy(steps([40, 1]), 0.05, 3), options, 4.3, 0.1).from).toBe(0);
  });
});

describe('the shift test', () => {
  it('compares the nights since a shift with at most maxBaseline nights before it, so an old level far back does not count', () => {
    // 30 nights 20% lower long before, then 30 nights at the level, then +12%: against the 30 nights just before, +12%.
    const levels = noisy(steps([30, 0.8], [30, 1], [10, 1.12]), 0.01, 4);
    const shift = strongestShift(levels, options)!;
    expect(shift.start).toBe(60);
    expect(shift.baselineNights).toBe(30);
    expect(Math.expm1(shift.shift)).toBeCloseTo(0.12, 1);
  });

  it("allows for the nights' correlation only as far as their spread exceeds what their repeats imply", () => {
    // Nights that wander together (a slow sine, 3% each side) around 1% of noise of their own, then +15%.
    const wander = steps([27, 1], [3, 1.15]).map((level, i) => level + 0.03 * Math.sin(i / 4));
    const levels = noisy(wander, 0.01, 6);
    const nightsOnly = strongestShift(levels, options)!;
    expect(nightsOnly.correlation).toBeGreaterThan(0.3);
    // Repeats that explain most of the nights' variance (within the split's two sides) leave the rest to wander.
    const repeatNoise = nightsOnly.noise * Math.sqrt(0.75);
    const someRepeats = strongestShift(levels, { ...options, repeatNoise })!;
    expect(someRepeats.correlation).toBeLessThan(nightsOnly.correlation);
    expect(someRepeats.correlation).toBeLessThanOrEqual(Math.max(0, 1 - (repeatNoise / someRepeats.noise) ** 2));
    // Repeats that explain all of it: whatever lag-1 correlation the nights measure is chance.
    const allRepeats = strongestShift(levels, { ...options, noiseFloor: nightsOnly.noise, repeatNoise: nightsOnly.noise })!;
    expect(allRepeats.correlation).toBe(0);
    expect(allRepeats.standardError).toBeLessThan(nightsOnly.standardError);
  });

  it("reads the t with the repeats' degrees of freedom when their floor, not the nights' spread, is the noise", () => {
    // 10 nights at the level, then 3 nights +8%; the nights' own spread (1%) is under what the repeats imply (3%).
    const levels = noisy(steps([10, 1], [3, 1.08]), 0.01, 5);
    const floored = { ...options, noiseFloor: 0.03 };
    const nightsOnly = strongestShift(levels, floored)!;
    const withRepeats = strongestShift(levels, { ...floored, noiseFloorDegrees: 26 })!;
    expect(withRepeats.noise).toBe(0.03);
    expect(withRepeats.shift).toBe(nightsOnly.shift);
    // 11 nights' degrees of freedom read t = 4.3 as z = 3.2; 26 repeats' as 3.7.
    expect(Math.abs(withRepeats.z)).toBeGreaterThan(Math.abs(nightsOnly.z) + 0.3);
    // A spread of the nights above the floor keeps the nights' degrees of freedom.
    const noisyNights = noisy(steps([10, 1], [3, 1.3]), 0.06, 5);
    expect(strongestShift(noisyNights, { ...floored, noiseFloorDegrees: 26 })!.z).toBe(strongestShift(noisyNights, floored)!.z);
  });

  it("does not read a clear step inside the baseline as nights that wander together, but still allows for a baseline that wanders", () => {
    // A real Dask series at one repeat (test/detect/dask-history-one-repeat.test.ts): the machine's
    // own step inside the baseline, then the planted slowdown on night 12.
    const dask = [0.594, 0.523, 0.657, 0.641, 1.253, 1.346, 1.163, 0.912, 1.267, 1.068, 0.82, 2.076, 2.476, 2.016, 3.16, 2.69, 2.175].map(Math.log);
    const shift = strongestShift(dask, young)!;
    expect(shift.start).toBe(11);
    // Around one level the step read as correlation: z 3.2 on these nights, 4.5 around two.
    expect(Math.abs(shift.z)).toBeGreaterThan(4.3);
    // In an older series such a step is left to the allowance (runners that switch CPU levels).
    expect(Math.abs(strongestShift(dask, options)!.z)).toBeLessThan(3.5);
    // A baseline that wanders keeps its allowance: the error stays wider than for independent nights.
    const random = createRandom(11);
    const walk = [0];
    for (let i = 1; i < 30; i++) walk.push(walk.at(-1)! + 0.03 * (random() - 0.5));
    const wandering = strongestShift([...walk, ...walk.slice(-3).map((level) => level + 0.05)], young)!;
    const independent = wandering.noise * Math.sqrt(1 / wandering.nights + 1 / wandering.baselineNights);
    expect(wandering.standardError).toBeGreaterThan(1.2 * independent);
  });

  it("holds back a bimodal benchmark's run of slow nights that passes the t, but not a step", () => {
    // 5 of 30 baseline nights in a slow mode 12% above the usual one, then 6 of 7: the t reads
    // 4.36 standard errors (a step to it), the ranks do not set the run apart.
    const slow = new Set([4, 11, 17, 23, 28, 30, 31, 32, 34, 35, 36]);
    const bimodal = noisy(Array.from({ length: 37 }, (_, i) => (slow.has(i) ? Math.log(1.12) : 0)), 0.02, 162);
    const run = strongestShift(bimodal, options)!;
    expect(run.z).toBeGreaterThan(4.3);
    const ranks = shiftRanksApart(bimodal, run);
    expect(ranks.apart).toBe(false);
    expect(ranks.p).toBeGreaterThan(shiftRankAlpha);
    // The same 12% as a step on night 30: every night after it ranks above every night before.
    const step = noisy(steps([30, 1], [7, 1.12]), 0.02, 162);
    expect(shiftRanksApart(step, strongestShift(step, options)!)).toMatchObject({ apart: true });
  });

  it('gives shifted nights all beyond a tied baseline the exact p of that one arrangement, and asks a short baseline for more nights', () => {
    // 20 baseline nights on five values, then 3 nights all above them: 1 / C(23, 3).
    const tied = [...Array.from({ length: 20 }, (_, i) => Math.log(1 + (i % 5) / 100)), ...steps([3, 1.5])];
    const shift = { start: 20, nights: 3, z: 9, shift: Math.log(1.45), baselineLevel: 0.02, baselineNights: 20, noise: 0.015, standardError: 0.01, correlation: 0 };
    expect(shiftRanksApart(tied, shift)).toEqual({ apart: true, p: 1 / 1771 });
    // The same 3 nights after 8 baseline nights (a level judged a week ago): 1 / C(11, 3) at best.
    expect(shiftRanksApart(tied.slice(12), { ...shift, start: 8, baselineNights: 8 })).toEqual({ apart: false, p: 1 / 165 });
  });

  it('finds the step with which three nights like the baseline\'s rank apart from it, larger behind an outlying night, and none against too few nights', () => {
    const calm = noisy(Array<number>(30).fill(0), 0.05, 7);
    const step = rankStepNeeded(calm, 3, 0.8)!;
    // Three nights drawn from the baseline's own plus that step: they rank apart in about 80% of draws.
    const random = createRandom(11);
    let apart = 0;
    for (let draw = 0; draw < 2000; draw++) {
      const shifted = [0, 1, 2].map(() => calm[Math.floor(random() * calm.length)]! + step);
      if (shiftRanksApart([...calm, ...shifted], { start: 30, baselineNights: 30, shift: step }).apart) apart++;
    }
    expect(apart / 2000).toBeGreaterThan(0.77);
    expect(apart / 2000).toBeLessThan(0.83);
    // One slow outlier night among the 30 (a heavy tail): the nights must clear it too.
    const outlier = calm.map((level, i) => (i === 12 ? level + 0.5 : level));
    expect(rankStepNeeded(outlier, 3, 0.8)!).toBeGreaterThan(step + 0.2);
    // Downwards for a metric whose regressions are lower values: the same step, mirrored.
    expect(rankStepNeeded(calm.map((level) => -level), 3, 0.8, -1)).toBeCloseTo(step, 10);
    // 3 nights never rank apart at 0.001 from fewer than 17 (`rankBaselineNeeded`).
    expect(rankStepNeeded(calm.slice(0, 16), 3, 0.8)).toBeUndefined();
  });

  it('calls a shift below the threshold only when its size plus the given standard errors stays below it', () => {
    const shift = { start: 10, nights: 10, z: 5, shift: Math.log(1.07), baselineLevel: 0, baselineNights: 10, noise: 0.03, standardError: 0.015, correlation: 0 };
    expect(belowThreshold(shift, 0.1, knownBelowStandardErrors)).toBe(false);
    expect(belowThreshold({ ...shift, standardError: 0.01 }, 0.1, knownBelowStandardErrors)).toBe(true);
    expect(belowThreshold({ ...shift, standardError: 0.05 }, 0.1, episodeGateStandardErrors)).toBe(true);
  });
});
