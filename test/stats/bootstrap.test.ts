import { median, sampleWithReplacement, quantile } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { bootstrapRatioOfMedians } from '../../src/stats/bootstrap.js';
import { createRandom } from '../../src/stats/random.js';
import { lognormalSample } from './helpers.js';

describe('bootstrapRatioOfMedians', () => {
  const baseline = [10.2, 9.8, 10.5, 10.1, 9.9];
  const candidate = [12.1, 11.8, 12.6, 12.0, 12.3];

  it('returns the observed ratio of medians and an interval around it', () => {
    const r = bootstrapRatioOfMedians(baseline, candidate, { random: createRandom(1) });
    expect(r.ratio).toBeCloseTo(12.1 / 10.1, 14);
    expect(r.low).toBeLessThanOrEqual(r.ratio);
    expect(r.high).toBeGreaterThanOrEqual(r.ratio);
    expect(r.low).toBeGreaterThan(1);
  });

  it('is the same algorithm as simple-statistics sampleWithReplacement + median + quantile', () => {
    // Same random stream, same draw order (baseline then candidate per
    // resample): the optimized loop must give exactly the naive result.
    for (const [n1, n2, resamples, confidence] of [
      [5, 5, 2000, 0.95],
      [10, 7, 500, 0.9],
      [40, 40, 300, 0.99],
    ] as const) {
      const data = createRandom(n1 * 100 + n2);
      const b = lognormalSample(data, n1, 1, 0.05);
      const c = lognormalSample(data, n2, 1.1, 0.05);
      const naiveRandom = createRandom(3);
      const ratios: number[] = [];
      for (let i = 0; i < resamples; i++) {
        const mb = median(sampleWithReplacement(b, n1, naiveRandom));
        const mc = median(sampleWithReplacement(c, n2, naiveRandom));
        ratios.push(mc / mb);
      }
      const tail = (1 - confidence) / 2;
      const [low, high] = quantile(ratios, [tail, 1 - tail]) as [number, number];
      const r = bootstrapRatioOfMedians(b, c, { random: createRandom(3), resamples, confidence });
      expect(r.low).toBeCloseTo(low, 14);
      expect(r.high).toBeCloseTo(high, 14);
      expect(r.ratio).toBeCloseTo(median(c) / median(b), 14);
    }
  });

  it('is reproducible for a seed', () => {
    const a = bootstrapRatioOfMedians(baseline, candidate, { random: createRandom(9) });
    const b = bootstrapRatioOfMedians(baseline, candidate, { random: createRandom(9) });
    expect(a).toEqual(b);
  });

  it('a wider confidence gives a wider interval', () => {
    const r90 = bootstrapRatioOfMedians(baseline, candidate, { random: createRandom(2), confidence: 0.9 });
    const r99 = bootstrapRatioOfMedians(baseline, candidate, { random: createRandom(2), confidence: 0.99 });
    expect(r99.low).toBeLessThanOrEqual(r90.low);
    expect(r99.high).toBeGreaterThanOrEqual(r90.high);
  });

  it('constant samples give a degenerate interval at the ratio', () => {
    const r = bootstrapRatioOfMedians([2, 2, 2], [3, 3, 3, 3], { random: createRandom(4), resamples: 50 });
    expect(r).toEqual({ ratio: 1.5, low: 1.5, high: 1.5 });
  });

  it('survives a random source that returns exactly 1 or 0', () => {
    // 1 is clamped to the last element, 0 picks the first: every resample is
    // then a constant sample of that element.
    const r1 = bootstrapRatioOfMedians(baseline, candidate, { random: () => 1, resamples: 10 });
    expect([r1.low, r1.high]).toEqual([12.3 / 9.9, 12.3 / 9.9]);
    const r0 = bootstrapRatioOfMedians(baseline, candidate, { random: () => 0, resamples: 10 });
    expect([r0.low, r0.high]).toEqual([12.1 / 10.2, 12.1 / 10.2]);
  });

  it.each([
    { name: 'empty baseline', b: [] as number[], c: [1], opts: {} },
    { name: 'zero in baseline', b: [1, 0], c: [1], opts: {} },
    { name: 'NaN in candidate', b: [1], c: [Number.NaN], opts: {} },
    { name: 'resamples 0', b: [1], c: [1], opts: { resamples: 0 } },
    { name: 'fractional resamples', b: [1], c: [1], opts: { resamples: 10.5 } },
    { name: 'confidence 1', b: [1], c: [1], opts: { confidence: 1 } },
    { name: 'confidence 0', b: [1], c: [1], opts: { confidence: 0 } },
  ])('throws RangeError on $name', ({ b, c, opts }) => {
    expect(() => bootstrapRatioOfMedians(b, c, { random: createRandom(1), ...opts })).toThrow(RangeError);
  });

  it('2000 resamples of n=5 take well under 10 ms', () => {
    const random = createRandom(5);
    for (let i = 0; i < 20; i++) bootstrapRatioOfMedians(baseline, candidate, { random }); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now();
      bootstrapRatioOfMedians(baseline, candidate, { random });
      times.push(performance.now() - t0);
    }
    const typical = median(times);
    console.log(`bootstrap, 2000 resamples, n=5 per side: median ${typical.toFixed(3)} ms per call`);
    // Generous bound so a loaded CI machine does not flake; typical is ~0.3 ms.
    expect(typical).toBeLessThan(5);
  });
});
