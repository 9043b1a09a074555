/**
 * Seeded Monte Carlo checks of the decision rules built from src/stats:
 * calibration under the null (A/A), power for a planted regression, and
 * false discovery rate control. Every figure is printed, and every
 * assertion is tight enough to fail if a rule were mis-calibrated.
 */
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/stats/multiple-comparisons.js';
import { mannWhitneyU } from '../../src/stats/mann-whitney.js';
import { bootstrapRatioOfMedians } from '../../src/stats/bootstrap.js';
import { createRandom } from '../../src/stats/random.js';
import { binomialSe, exactTwoSidedSize, lognormalSample } from './helpers.js';

const ALPHA = 0.05;
const CV = 0.05;
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** Share of A/A comparisons (same distribution both sides) with two-sided p <= ALPHA. */
function aaFalsePositiveRate(seed: number, n: number, trials: number): number {
  const random = createRandom(seed);
  let rejections = 0;
  for (let t = 0; t < trials; t++) {
    const a = lognormalSample(random, n, 1, CV);
    const b = lognormalSample(random, n, 1, CV);
    if (mannWhitneyU(a, b).p <= ALPHA) rejections++;
  }
  return rejections / trials;
}

describe('A/A false-positive rate (2,000 comparisons, lognormal noise, CV 5%, alpha 5%, no correction)', () => {
  const trials = 2000;

  it('n=10 per side: within [3%, 7%] and consistent with the exact size of the test', () => {
    const size = exactTwoSidedSize(10, 10, ALPHA);
    const rate = aaFalsePositiveRate(101, 10, trials);
    console.log(
      `A/A n=10 per side: false-positive rate ${pct(rate)} over ${trials} comparisons ` +
        `(exact size of the test at alpha 5%: ${pct(size)})`,
    );
    expect(rate).toBeGreaterThanOrEqual(0.03);
    expect(rate).toBeLessThanOrEqual(0.07);
    expect(Math.abs(rate - size)).toBeLessThan(4 * binomialSe(size, trials));
  });

  it('n=5 per side: the discrete exact test attains only 3.17% at alpha 5%, and the simulation agrees', () => {
    // With 5 per side the attainable two-sided p-values around 0.05 are
    // 8/252 = 0.0317 and 14/252 = 0.0556, so "p <= 0.05" is really a 3.17% test.
    const size = exactTwoSidedSize(5, 5, ALPHA);
    expect(size).toBeCloseTo(8 / 252, 12);
    const rate = aaFalsePositiveRate(202, 5, trials);
    console.log(
      `A/A n=5 per side: false-positive rate ${pct(rate)} over ${trials} comparisons ` +
        `(exact size ${pct(size)}: the nominal 5% is not attainable at n=5)`,
    );
    expect(Math.abs(rate - size)).toBeLessThan(4 * binomialSe(size, trials));
  });
});

describe('power for a planted regression', () => {
  it('detects a 20% shift at CV 5% with n=5 per side in at least 95% of trials', () => {
    const trials = 2000;
    const random = createRandom(303);
    let detected = 0;
    let intervalExcludesOne = 0;
    for (let t = 0; t < trials; t++) {
      const baseline = lognormalSample(random, 5, 1, CV);
      const candidate = lognormalSample(random, 5, 1.2, CV);
      if (mannWhitneyU(candidate, baseline).p <= ALPHA) detected++;
      if (bootstrapRatioOfMedians(baseline, candidate, { random, resamples: 500 }).low > 1) intervalExcludesOne++;
    }
    const power = detected / trials;
    console.log(
      `power, +20% at CV 5%, n=5 per side: Mann-Whitney p <= 0.05 in ${pct(power)} of ${trials} trials; ` +
        `bootstrap 95% CI (500 resamples) above 1 in ${pct(intervalExcludesOne / trials)}`,
    );
    expect(power).toBeGreaterThanOrEqual(0.95);
  });

  it('power falls off for smaller shifts (printed for context; sanity-checked as monotone)', () => {
    const trials = 1000;
    const rows: string[] = [];
    for (const n of [5, 10]) {
      const powers: number[] = [];
      for (const shift of [0.02, 0.05, 0.1, 0.2]) {
        const random = createRandom(404 + n * 1000 + shift * 100);
        let detected = 0;
        for (let t = 0; t < trials; t++) {
          const baseline = lognormalSample(random, n, 1, CV);
          const candidate = lognormalSample(random, n, 1 + shift, CV);
          if (mannWhitneyU(candidate, baseline).p <= ALPHA) detected++;
        }
        powers.push(detected / trials);
      }
      rows.push(`n=${n}: ${powers.map((p, i) => `+${[2, 5, 10, 20][i]}% ${pct(p)}`).join(', ')}`);
      for (let i = 1; i < powers.length; i++) expect(powers[i]).toBeGreaterThanOrEqual(powers[i - 1]! - 0.03);
    }
    console.log(`power at CV 5%, alpha 5%, ${trials} trials each: ${rows.join('; ')}`);
  });
});

describe('Benjamini-Hochberg false discovery rate', () => {
  /** Mean false discovery proportion (FDP = false / max(1, rejected)) and mean power over batches. */
  function simulate(
    batches: number,
    pValuesOfBatch: () => { p: number[]; isReal: boolean[] },
    reject: (p: number[]) => boolean[],
  ): { fdr: number; fdrSe: number; power: number } {
    let fdpSum = 0;
    let fdpSquares = 0;
    let powerSum = 0;
    for (let b = 0; b < batches; b++) {
      const { p, isReal } = pValuesOfBatch();
      const rejected = reject(p);
      let falseRejections = 0;
      let trueRejections = 0;
      let real = 0;
      rejected.forEach((r, i) => {
        if (isReal[i]) real++;
        if (r && isReal[i]) trueRejections++;
        if (r && !isReal[i]) falseRejections++;
      });
      const fdp = falseRejections / Math.max(1, falseRejections + trueRejections);
      fdpSum += fdp;
      fdpSquares += fdp * fdp;
      powerSum += trueRejections / real;
    }
    const fdr = fdpSum / batches;
    const fdrSe = Math.sqrt((fdpSquares / batches - fdr * fdr) / (batches - 1));
    return { fdr, fdrSe, power: powerSum / batches };
  }

  const bh = (p: number[]) => benjaminiHochberg(p, ALPHA).rejected;
  const uncorrected = (p: number[]) => p.map((x) => x <= ALPHA);

  it('keeps the FDR <= 5% on Mann-Whitney tests, 80 null + 20 real (+10%) per batch, n=10 per side', () => {
    const random = createRandom(505);
    const batch = () => {
      const p: number[] = [];
      const isReal: boolean[] = [];
      for (let i = 0; i < 100; i++) {
        const real = i >= 80;
        const baseline = lognormalSample(random, 10, 1, CV);
        const candidate = lognormalSample(random, 10, real ? 1.1 : 1, CV);
        p.push(mannWhitneyU(candidate, baseline).p);
        isReal.push(real);
      }
      return { p, isReal };
    };
    const batches = 300;
    const withBh = simulate(batches, batch, bh);
    const without = simulate(batches, batch, uncorrected);
    console.log(
      `FDR, ${batches} batches of 80 null + 20 real (+10% at CV 5%, n=10, Mann-Whitney): ` +
        `BH q=5%: FDR ${pct(withBh.fdr)}, power ${pct(withBh.power)}; ` +
        `uncorrected p<=5%: FDR ${pct(without.fdr)}, power ${pct(without.power)}`,
    );
    expect(withBh.fdr).toBeLessThanOrEqual(ALPHA);
    expect(withBh.power).toBeGreaterThan(0.5);
    // The check has teeth: without correction the FDR is far above 5%.
    expect(without.fdr).toBeGreaterThan(2 * ALPHA);
  });

  it('is tight on continuous (uniform) null p-values: FDR ~ q * m0/m = 4%, and <= 5%', () => {
    // The worst case for BH with independent tests: nulls exactly uniform.
    // Theory gives FDR = q * 80/100 = 4% regardless of the real effects.
    const random = createRandom(606);
    const batch = () => {
      const p: number[] = [];
      const isReal: boolean[] = [];
      for (let i = 0; i < 100; i++) {
        const real = i >= 80;
        p.push(real ? random() ** 8 : random());
        isReal.push(real);
      }
      return { p, isReal };
    };
    const batches = 4000;
    const { fdr, fdrSe, power } = simulate(batches, batch, bh);
    console.log(
      `FDR, ${batches} batches of 80 uniform nulls + 20 real: BH q=5%: FDR ${pct(fdr)} ` +
        `+/- ${pct(fdrSe)} (theory 4.00%), power ${pct(power)}`,
    );
    expect(fdr).toBeLessThanOrEqual(ALPHA);
    // Matches theory within Monte Carlo error, so a slightly too liberal or
    // too conservative (e.g. Bonferroni-like) procedure fails here.
    expect(Math.abs(fdr - 0.04)).toBeLessThan(4 * fdrSe);
  });
});
