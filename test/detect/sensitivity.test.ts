import { describe, expect, it } from 'vitest';
import { medianNoiseFactor } from '../../src/detect/compare.js';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import {
  describeSensitivity, detectableOf, detectableWithin, maxTunedRepeats, minimumDetectable, noiseAt, repeatsNeeded, type SensitivityBasis,
} from '../../src/detect/sensitivity.js';
import { zAsT } from '../../src/stats/student-t.js';
import { runNights, seriesRows } from './helpers.js';

/** 3 repeats at 5% CV each and no night-to-night noise of its own: the median's noise is 3.3%. */
const repeatNoisy: SensitivityBasis = { repeats: 3, noise: 0.05 * medianNoiseFactor(3), persistNoise: 0.05 * medianNoiseFactor(3), repeatSpread: 0.05, baselineNights: 7, sinceNights: 30, threshold: 0.1 };

describe('sensitivity', () => {
  it('keeps the measured noise at the measured repeats and averages only the repeat part away with more', () => {
    expect(noiseAt(repeatNoisy, 3).noise).toBeCloseTo(repeatNoisy.noise, 12);
    expect(noiseAt(repeatNoisy, 12).noise).toBeCloseTo(0.05 * medianNoiseFactor(12), 12);
    // 4% night-to-night on top of the repeats: that part stays whatever the repeats.
    const nightly = { ...repeatNoisy, noise: Math.hypot(0.04, repeatNoisy.noise), persistNoise: Math.hypot(0.04, repeatNoisy.noise) };
    expect(noiseAt(nightly, 1000).noise).toBeGreaterThan(0.04);
    expect(noiseAt(nightly, 1000).noise).toBeLessThan(0.041);
  });

  it('is the change that passes a gate 80% of the time: the gate plus 0.84 standard errors, fast path in 1 night, persistence in 3', () => {
    const first = Math.expm1((policy.noiseMultiple + 0.8416) * repeatNoisy.noise * Math.sqrt(1 + 1 / 7));
    // The persistence path's gate is a t on the repeats' 66 degrees of freedom (two a night over the
    // 3 nights and the 30 before them: the repeats' floor is this series' noise), widened as the path
    // widens it for the nights' correlation estimated from 33 nights (by 1.080 on average, spreading
    // 0.126 from series to series on independent nights), plus 0.84 of the spread of the shift and of that widening.
    const gate = zAsT(policy.persistZ, 66);
    const persistent = Math.expm1((gate * 1.08 + 0.8416 * Math.sqrt(1 + (gate * 0.126) ** 2)) * repeatNoisy.persistNoise * Math.sqrt(1 / 3 + 1 / 30));
    expect(minimumDetectable(repeatNoisy, policy, 1)).toBeCloseTo(first, 4);
    expect(minimumDetectable(repeatNoisy, policy, 3)).toBeCloseTo(Math.min(first, persistent), 3);
    // One repeat a night: no fast path, so nothing at all on the first night.
    expect(minimumDetectable(repeatNoisy, policy, 1, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(minimumDetectable(repeatNoisy, policy, 5)).toBeLessThan(minimumDetectable(repeatNoisy, policy, 3));
  });

  it('counts the threshold as a gate: a change of the threshold measures below it half the time, so what a quiet series sees is above it', () => {
    const quiet: SensitivityBasis = { ...repeatNoisy, noise: 0.01, persistNoise: 0.01, repeatSpread: 0.01 / medianNoiseFactor(3) };
    const seen = detectableOf(quiet, policy);
    // The noise alone would allow 5% on the first night; the fast path's change must reach the
    // threshold, so 0.84 noise units of the change above it.
    expect(minimumDetectable(quiet, policy, 1)).toBeLessThan(0.06);
    expect(seen.firstNight).toBeCloseTo(Math.expm1(Math.log1p(0.1) + 0.8416 * 0.01 * Math.sqrt(1 + 1 / 7)), 4);
    // The persistence path opens a shift unless it measures half a standard error below the threshold: a third of one above it.
    const unit = 0.01 * Math.sqrt(1 / 3 + 1 / 30);
    expect(seen.persistent).toBeCloseTo(Math.expm1(Math.log1p(0.1) + (0.8416 - 0.5 * 1.08) * unit), 4);
    expect(seen.repeatsForThreshold).toBeUndefined();
    expect(describeSensitivity(seen)).toBe('this test sees an 11% change in 3 nights (11% on its first night)');
  });

  it("widens the 3-night figure for the series' own correlation, as the persistence path widens its standard error", () => {
    const independent = minimumDetectable(repeatNoisy, policy, 3, 1);
    // Measured correlation 0 is close to the independent allowance (half the series' estimates fall below 0).
    expect(minimumDetectable({ ...repeatNoisy, correlation: 0 }, policy, 3, 1)).toBeCloseTo(independent, 1);
    const wandering = minimumDetectable({ ...repeatNoisy, correlation: 0.3 }, policy, 3, 1);
    // sqrt(1.3 / 0.7) = 1.36: the gate's share of the figure grows by about that much.
    expect(wandering / independent).toBeGreaterThan(1.2);
    expect(wandering / independent).toBeLessThan(1.45);
  });

  it('names the fewest repeats that reach a target, and none when the night-to-night noise alone is too large', () => {
    const needed = repeatsNeeded(repeatNoisy, policy, 0.1, 1)!;
    expect(minimumDetectable(repeatNoisy, policy, 1, needed)).toBeLessThanOrEqual(0.1);
    expect(minimumDetectable(repeatNoisy, policy, 1, needed - 1)).toBeGreaterThan(0.1);
    const nightly: SensitivityBasis = { ...repeatNoisy, noise: 0.08, persistNoise: 0.08 };
    expect(repeatsNeeded(nightly, policy, 0.1, 3)).toBeUndefined();
    expect(repeatsNeeded(nightly, policy, 0.6, 3)).toBe(1);
    expect(maxTunedRepeats).toBeGreaterThan(needed);
  });

  it('says what a test sees and, where its noise limits it, what more repeats would bring it to', () => {
    const sees = detectableOf({ ...repeatNoisy, noise: 0.02, persistNoise: 0.02, repeatSpread: 0.02 }, policy);
    expect(sees.repeatsForThreshold).toBeUndefined();
    expect(describeSensitivity(sees)).toBe('this test sees an 11% change in 3 nights (12% on its first night)');
    const repeatNoisyNeeds = detectableOf(repeatNoisy, policy);
    expect(minimumDetectable(repeatNoisy, policy, 3, repeatNoisyNeeds.repeatsForThreshold!)).toBeLessThanOrEqual(0.1);
    expect(describeSensitivity(repeatNoisyNeeds)).toBe('this test sees a 13% change in 3 nights (19% on its first night); with 5 repeats a night it would see 11% in 3 nights, its 10% threshold the limit');
    const noisy: SensitivityBasis = { ...repeatNoisy, repeats: 1, noise: 0.08, persistNoise: 0.08, repeatSpread: 0.08 };
    const needs = detectableOf(noisy, policy);
    expect(needs.repeatsForThreshold).toBeGreaterThan(1);
    expect(describeSensitivity(needs)).toMatch(/^this test sees a \d+% change in 3 nights, none on its first night alone; with \d+ repeats a night it would see 11% in 3 nights, its 10% threshold the limit$/);
    const stuck = detectableOf({ ...noisy, repeatSpread: 0.01 }, policy);
    expect(stuck.thresholdOutOfReach).toBe(true);
    expect(describeSensitivity(stuck)).toContain('no number of repeats brings it to its 10% threshold in 3 nights (its night-to-night noise alone is too large)');
    expect(detectableWithin(needs, 1)).toBeUndefined();
  });

  it('is what the judge reports for a series, and detection catches about 80% of steps of that size within 3 nights', () => {
    // Judged alone: the sensitivity promised by night 30 at 3 repeats and CV 8%.
    const verdict = runNights(seriesRows({ seed: 21, nights: 31, repeats: 3, cv: 0.08 }), policy, 30, 30).verdicts[0]![0]!;
    const promised = detectableWithin(verdict.detectable!, 3)!;
    // Its noise, not its threshold, limits it here.
    expect(promised).toBeCloseTo(minimumDetectable(verdict.detectable!.basis, policy, 3), 12);
    expect(promised).toBeGreaterThan(0.1);
    // Planted at the promise itself (+26.9%) into 40 series like it: 36 caught. Before the figure
    // read the gate as a t for its degrees of freedom and allowed for the nights' correlation, it
    // promised +20.8% here, and 26 of 40 such steps were caught where it promised 32.
    // bench/sensitivity-calibration.ts measures every cell with 2000 series.
    let caught = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rows = seriesRows({ seed: 200 + seed, nights: 33, repeats: 3, cv: 0.08, steps: [{ from: 30, factor: 1 + promised }] });
      if (runNights(rows, policy, 30, 32).opened > 0) caught++;
    }
    expect(caught).toBeGreaterThanOrEqual(28);
  });

  it('promises on the first night what its threshold allows where its noise does not limit it: 5 repeats at CV 3%', () => {
    const verdict = runNights(seriesRows({ seed: 21, nights: 31, repeats: 5, cv: 0.03 }), policy, 30, 30).verdicts[0]![0]!;
    const promised = verdict.detectable!.firstNight!;
    expect(minimumDetectable(verdict.detectable!.basis, policy, 1)).toBeLessThan(0.105);
    expect(promised).toBeGreaterThan(0.115);
    // Planted at the promise (+11.9%) into 40 series like it: 37 caught on their first night. The
    // figure was the threshold (10%) before the threshold counted as a gate: 23 of 40 caught.
    const caughtAt = (size: number) => {
      let caught = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const rows = seriesRows({ seed: 300 + seed, nights: 31, repeats: 5, cv: 0.03, steps: [{ from: 30, factor: 1 + size }] });
        if (runNights(rows, policy, 30, 30).opened > 0) caught++;
      }
      return caught;
    };
    expect(caughtAt(promised)).toBeGreaterThanOrEqual(28);
    expect(caughtAt(0.1)).toBeLessThan(28);
  });
});
