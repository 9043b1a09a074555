import { describe, expect, it } from 'vitest';
import { judge, noiseBand, verdictLabel, type VerdictInput } from '../../src/ab/verdict.js';

const band = { low: 0.95, high: 1 / 0.95 };

describe('judge', () => {
  const cases: { what: string; input: VerdictInput; verdict: string; reason: RegExp }[] = [
    { what: 'significant, beyond the band, lower is better, went up', input: { ratio: 1.2, difference: 2, pAdjusted: 0.01, fdr: 0.05, band, direction: 'lower' }, verdict: 'worse', reason: /beyond the A\/A band/ },
    { what: 'significant, beyond the band, lower is better, went down', input: { ratio: 0.8, difference: -2, pAdjusted: 0.01, fdr: 0.05, band, direction: 'lower' }, verdict: 'better', reason: /beyond/ },
    { what: 'higher is better, went up', input: { ratio: 1.2, difference: 2, pAdjusted: 0.01, fdr: 0.05, band, direction: 'higher' }, verdict: 'better', reason: /beyond/ },
    { what: 'higher is better, went down', input: { ratio: 0.8, difference: -2, pAdjusted: 0.01, fdr: 0.05, band, direction: 'higher' }, verdict: 'worse', reason: /beyond/ },
    { what: 'no direction: changed', input: { ratio: 2, difference: 10, pAdjusted: 0.01, fdr: 0.05, band, direction: 'either' }, verdict: 'changed', reason: /significant/ },
    { what: 'significant but inside the A/A band', input: { ratio: 1.03, difference: 0.3, pAdjusted: 0.001, fdr: 0.05, band, direction: 'lower' }, verdict: 'no clear change', reason: /within the A\/A band/ },
    { what: 'on the band edge counts as inside', input: { ratio: band.high, difference: 0.5, pAdjusted: 0.001, fdr: 0.05, band, direction: 'lower' }, verdict: 'no clear change', reason: /within/ },
    { what: 'beyond the band but not significant', input: { ratio: 1.5, difference: 5, pAdjusted: 0.06, fdr: 0.05, band, direction: 'lower' }, verdict: 'no clear change', reason: /not significant \(adjusted p 0.06 > 0.05\)/ },
    { what: 'p exactly at the FDR level is significant', input: { ratio: 1.5, difference: 5, pAdjusted: 0.05, fdr: 0.05, band, direction: 'lower' }, verdict: 'worse', reason: /beyond/ },
    { what: 'without a band significance decides', input: { ratio: 1.01, difference: 0.1, pAdjusted: 0.01, fdr: 0.05, direction: 'lower' }, verdict: 'worse', reason: /no A\/A band/ },
    { what: 'no ratio, significant, went up from zero: significance and the medians decide', input: { difference: 1e9, pAdjusted: 0.001, fdr: 0.05, band, direction: 'lower' }, verdict: 'worse', reason: /^significant; no ratio .*, so no A\/A band applies$/ },
    { what: 'no ratio, significant, medians equal', input: { difference: 0, pAdjusted: 0.001, fdr: 0.05, direction: 'lower' }, verdict: 'changed', reason: /no ratio/ },
    { what: 'no ratio and not significant', input: { difference: 0, pAdjusted: 1, fdr: 0.05, band, direction: 'lower' }, verdict: 'no clear change', reason: /not significant \(adjusted p 1 > 0.05\)/ },
    { what: 'a NaN p-value is never significant', input: { ratio: 2, difference: 10, pAdjusted: Number.NaN, fdr: 0.05, direction: 'lower' }, verdict: 'no clear change', reason: /not significant/ },
  ];
  it.each(cases)('$what', ({ input, verdict, reason }) => {
    const judgement = judge(input);
    expect(judgement.verdict).toBe(verdict);
    expect(judgement.reason).toMatch(reason);
  });
});

describe('noiseBand', () => {
  it('is symmetric in log space whichever side of 1 the A/A interval lies', () => {
    const band = noiseBand({ ratio: 1.02, low: 0.99, high: 1.1 });
    expect(band.high).toBeCloseTo(1.1, 12);
    expect(band.low).toBeCloseTo(1 / 1.1, 12);
    const below = noiseBand({ ratio: 0.9, low: 0.8, high: 0.95 });
    expect(below.low).toBeCloseTo(0.8, 12);
    expect(below.high).toBeCloseTo(1.25, 12);
  });

  it('covers the A/A point estimate even when the interval is degenerate', () => {
    expect(noiseBand({ ratio: 1, low: 1, high: 1 })).toEqual({ low: 1, high: 1 });
    const band = noiseBand({ ratio: 1.05, low: 1.05, high: 1.05 });
    expect(band.low).toBeCloseTo(1 / 1.05, 12);
  });
});

describe('verdictLabel', () => {
  it('says faster and slower of times, better and worse of the rest', () => {
    expect(verdictLabel('better', 's')).toBe('faster');
    expect(verdictLabel('worse', 's')).toBe('slower');
    expect(verdictLabel('better', 'seconds')).toBe('faster');
    expect(verdictLabel('worse', 'bytes')).toBe('worse');
    expect(verdictLabel('no clear change', 's')).toBe('no clear change');
  });
});
