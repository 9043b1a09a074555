import { describe, expect, it } from 'vitest';
import { analyzeAb, byEffect, testKey, type AbObservation } from '../../src/ab/analysis.js';
import { smallestTwoSidedP } from '../../src/stats/index.js';
import { abGroups } from '../../src/ab/schedule.js';
import { createRandom } from '../../src/stats/index.js';

const options = { fdr: 0.05, confidence: 0.95, resamples: 500, seed: 11 };
const directions = { [testKey('s', 'w', 'wall_time')]: 'lower' as const, [testKey('s', 'w', 'peak_memory')]: 'lower' as const };

function observations(group: string, metric: string, values: number[], workload = 'w'): AbObservation[] {
  return values.map((value) => ({ group, suite: 's', workload, metric, unit: metric === 'wall_time' ? 's' : 'bytes', value }));
}

/** Lognormal-ish noise around `level` with relative spread `cv`. */
function noisy(random: () => number, level: number, cv: number, n: number): number[] {
  return Array.from({ length: n }, () => level * Math.exp(cv * (random() + random() + random() - 1.5) * 2));
}

describe('analyzeAb', () => {
  const tight = [10.0, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7];
  const shifted = tight.map((v) => v * 1.3);

  it('reports n, median, mean, std, ratio with interval and p for each side', () => {
    const result = analyzeAb({
      groups: abGroups(['a', 'b'], false),
      observations: [...observations('A', 'wall_time', tight), ...observations('B', 'wall_time', shifted)],
      directions,
      options,
    });
    const [test] = result.tests;
    expect(test).toMatchObject({ group: 'B', workload: 'w', metric: 'wall_time', direction: 'lower', exact: true, verdict: 'worse' });
    expect(test!.baseline.n).toBe(8);
    expect(test!.baseline.median).toBeCloseTo(10.35, 12);
    expect(test!.candidate.mean).toBeCloseTo(10.35 * 1.3, 10);
    expect(test!.ratio!.ratio).toBeCloseTo(1.3, 10);
    expect(test!.ratio!.low).toBeLessThanOrEqual(1.3);
    expect(test!.ratio!.high).toBeGreaterThanOrEqual(1.3);
    expect(test!.p).toBeCloseTo(smallestTwoSidedP(8, 8), 12);
    expect(result.notes).toContain('no null hypothesis (A/A) ran: verdicts rest on significance alone, without a noise band');
  });

  it('gates a significant change by the A/A band: the same B is "worse" against a quiet A/A and "no clear change" against a noisy one', () => {
    const b = tight.map((v) => v * 1.06);
    const quietTwin = tight.map((v) => v + 0.05);
    const noisyTwin = tight.map((v, i) => v * (i % 2 === 0 ? 1.12 : 0.9));
    const run = (twin: number[]) =>
      analyzeAb({
        groups: abGroups(['a', 'b'], true),
        observations: [...observations('A', 'wall_time', tight), ...observations("A'", 'wall_time', twin), ...observations('B', 'wall_time', b)],
        directions,
        options,
      });
    const quiet = run(quietTwin);
    expect(quiet.tests[0]!.pAdjusted).toBeLessThan(0.05);
    expect(quiet.tests[0]!.verdict).toBe('worse');
    expect(quiet.tests[0]!.band!.high).toBeLessThan(1.06);
    const noisyResult = run(noisyTwin);
    expect(noisyResult.tests[0]!.pAdjusted).toBeLessThan(0.05);
    expect(noisyResult.tests[0]!.band!.high).toBeGreaterThan(1.06);
    expect(noisyResult.tests[0]!).toMatchObject({ verdict: 'no clear change', reason: expect.stringMatching(/within the A\/A band/) });
    expect(noisyResult.nullTests[0]).toMatchObject({ group: "A'", verdict: 'no clear change' });
  });

  it('corrects across all candidate tests (Benjamini-Hochberg) and keeps the A/A family apart', () => {
    const random = createRandom(5);
    const obs: AbObservation[] = [];
    for (let w = 0; w < 10; w++) {
      for (const group of ['A', "A'", 'B']) obs.push(...observations(group, 'wall_time', noisy(random, 10, 0.05, 8), `w${w}`));
    }
    const result = analyzeAb({ groups: abGroups(['a', 'b'], true), observations: obs, directions: {}, options });
    expect(result.tests).toHaveLength(10);
    expect(result.nullTests).toHaveLength(10);
    for (const t of result.tests) expect(t.pAdjusted).toBeGreaterThanOrEqual(t.p);
    const smallest = [...result.tests].sort((a, b) => a.p - b.p)[0]!;
    expect(smallest.pAdjusted).toBeCloseTo(Math.min(1, ...result.tests.map((t) => t.p * 10 / (result.tests.filter((u) => u.p <= t.p).length))), 12);
  });

  it('in simulated A/B tests without a real difference, rarely calls a change (false positives <= 5%)', () => {
    const random = createRandom(2024);
    let calls = 0;
    const trials = 200;
    for (let trial = 0; trial < trials; trial++) {
      const obs = ['A', "A'", 'B'].flatMap((g) => [...observations(g, 'wall_time', noisy(random, 10, 0.05, 8)), ...observations(g, 'peak_memory', noisy(random, 5e8, 0.02, 8))]);
      const result = analyzeAb({ groups: abGroups(['a', 'b'], true), observations: obs, directions, options: { ...options, seed: trial } });
      if (result.tests.some((t) => t.verdict !== 'no clear change')) calls++;
    }
    expect(calls / trials).toBeLessThanOrEqual(0.05);
  });

  it('in simulated A/B tests with a 15% slowdown at 5% noise, finds it nearly always with 8 repeats', () => {
    const random = createRandom(7);
    let found = 0;
    const trials = 100;
    for (let trial = 0; trial < trials; trial++) {
      const obs = [...observations('A', 'wall_time', noisy(random, 10, 0.05, 8)), ...observations("A'", 'wall_time', noisy(random, 10, 0.05, 8)), ...observations('B', 'wall_time', noisy(random, 11.5, 0.05, 8))];
      const result = analyzeAb({ groups: abGroups(['a', 'b'], true), observations: obs, directions, options: { ...options, seed: trial } });
      if (result.tests[0]!.verdict === 'worse') found++;
    }
    expect(found / trials).toBeGreaterThanOrEqual(0.85);
  });

  it('gives each test the same interval whichever other tests ran (per-test seeds)', () => {
    const base = [...observations('A', 'wall_time', tight), ...observations('B', 'wall_time', shifted)];
    const alone = analyzeAb({ groups: abGroups(['a', 'b'], false), observations: base, directions, options });
    const withOthers = analyzeAb({
      groups: abGroups(['a', 'b'], false),
      observations: [...observations('A', 'peak_memory', [1, 2, 3]), ...observations('B', 'peak_memory', [1, 2, 3]), ...base],
      directions,
      options,
    });
    expect(withOthers.tests.find((t) => t.metric === 'wall_time')!.ratio).toEqual(alone.tests[0]!.ratio);
  });

  it('says when the repeats are too few for any significance, and when a side has no values', () => {
    const five = [1, 2, 3, 4, 5];
    const obs = Array.from({ length: 20 }, (_, w) => [...observations('A', 'wall_time', five, `w${w}`), ...observations('B', 'wall_time', five.map((v) => v + 10), `w${w}`)]).flat();
    obs.push(...observations('A', 'peak_memory', five, 'w0'));
    // A workload without any value in B gets one note, not one per metric.
    obs.push(...observations('A', 'peak_memory', five, 'gone'), ...observations('A', 'wall_time', five, 'gone'));
    const result = analyzeAb({ groups: abGroups(['a', 'b'], false), observations: obs, directions, options });
    expect(result.notes.some((n) => /smallest possible p is 0.0079: among 20 tests a lone difference cannot pass/.test(n))).toBe(true);
    expect(result.notes).toContain('w0 peak_memory: no values for B; not compared');
    expect(result.notes.filter((n) => n.startsWith('gone'))).toEqual(['gone: no values for B; not compared']);
    // A workload that failed in B is told as a failure, not as missing values.
    const failures = [{ group: 'B', suite: 's', workload: 'gone', repeats: { failed: 5 } }];
    const withFailure = analyzeAb({ groups: abGroups(['a', 'b'], false), observations: obs, failures, directions, options });
    expect(withFailure.failures).toEqual(failures);
    expect(withFailure.notes.filter((n) => n.startsWith('gone'))).toEqual([]);
  });

  it('leaves the ratio out when a baseline value is not positive, and judges such a test by significance and its medians', () => {
    // A real A/B: nothing spilled in A, 1.19 GiB in every repeat of B (adjusted p 0.00089) read
    // "no clear change" when a missing ratio decided the verdict.
    const result = analyzeAb({
      groups: abGroups(['a', 'b'], true),
      observations: [
        ...['A', "A'"].flatMap((g) => [...observations(g, 'wall_time', [0, 0, 0, 0, 0, 0]), ...observations(g, 'peak_memory', [0, 0, 0, 0, 0, 0])]),
        ...observations('B', 'wall_time', [5, 6, 7, 8, 9, 10]),
        ...observations('B', 'peak_memory', [0, 0, 0, 0, 0, 0]),
      ],
      directions,
      options,
    });
    const test = (metric: string) => result.tests.find((t) => t.metric === metric)!;
    expect(test('wall_time')).toMatchObject({ ratio: undefined, band: undefined, verdict: 'worse', reason: 'significant; no ratio (a baseline value is not positive), so no A/A band applies' });
    expect(test('peak_memory')).toMatchObject({ ratio: undefined, verdict: 'no clear change', reason: expect.stringMatching(/^not significant/) });
    // The tables show such a test's band as "-": a note says what decided it.
    expect(result.notes).toContain('without a ratio (a baseline value of zero), so without an A/A band, significance alone decided: w wall_time');
  });

  it('sorts significant changes first, then by size of the effect', () => {
    const result = analyzeAb({
      groups: abGroups(['a', 'b'], false),
      observations: [
        ...observations('A', 'wall_time', tight), ...observations('B', 'wall_time', shifted),
        ...observations('A', 'peak_memory', [1, 2, 3, 4, 5, 6, 7, 8]), ...observations('B', 'peak_memory', [1, 2, 3, 4, 5, 6, 7, 80]),
        ...observations('A', 'cpu', [1, 2, 3, 4, 5, 6, 7, 8], 'x'), ...observations('B', 'cpu', [1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1], 'x'),
      ],
      directions,
      options,
    });
    expect([...result.tests].sort(byEffect).map((t) => t.metric)).toEqual(['wall_time', 'cpu', 'peak_memory']);
  });
});

describe('smallestTwoSidedP', () => {
  it('is 2 / C(n1 + n2, n1)', () => {
    expect(smallestTwoSidedP(5, 5)).toBeCloseTo(2 / 252, 15);
    expect(smallestTwoSidedP(8, 8)).toBeCloseTo(2 / 12870, 15);
    expect(smallestTwoSidedP(3, 6)).toBeCloseTo(2 / 84, 15);
    expect(smallestTwoSidedP(1, 1)).toBe(1);
  });
});
