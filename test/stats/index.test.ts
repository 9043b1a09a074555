import { describe, expect, it } from 'vitest';
import * as stats from '../../src/stats/index.js';

describe('src/stats/index.ts', () => {
  it('re-exports exactly the public API', () => {
    expect(Object.keys(stats).sort()).toEqual(
      [
        'MAD_TO_SIGMA',
        'MANN_WHITNEY_EXACT_MAX_N',
        'allBeyondP',
        'benjaminiHochberg',
        'bootstrapRatioOfMedians',
        'createRandom',
        'mannWhitneyU',
        'mannWhitneyUSorted',
        'medianInterval',
        'pooledWithinSpread',
        'relativeSpread',
        'smallestTwoSidedP',
        'standardNormal',
        'summarize',
      ].sort(),
    );
  });

  it('composes into an A/B analysis', () => {
    const baseline = [10.2, 9.8, 10.5, 10.1, 9.9];
    const candidate = [12.1, 11.8, 12.6, 12.0, 12.3];
    const mw = stats.mannWhitneyU(candidate, baseline, { alternative: 'greater' });
    expect(mw).toEqual({ u: 25, p: 1 / 252, exact: true });
    const ci = stats.bootstrapRatioOfMedians(baseline, candidate, { random: stats.createRandom(1) });
    expect(ci.low).toBeGreaterThan(1);
    expect(stats.summarize(candidate).median).toBe(12.1);
    expect(stats.benjaminiHochberg([mw.p]).rejected).toEqual([true]);
  });
});
