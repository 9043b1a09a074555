import { describe, expect, it } from 'vitest';
import { orderStates, type RangeCommitRef } from '../../src/bisect/candidates.js';
import { decideStep, defaultDecisionPolicy, estimateLevels, requiredRepeats } from '../../src/bisect/decide.js';
import { bisect, rerun } from '../../src/bisect/search.js';
import { simulatedPort } from '../../src/bisect/simulated.js';

const commit = (repo: string, sha: string, committedAt: string): RangeCommitRef => ({ repo, sha, committedAt, subject: sha, authorName: 'A', authorEmail: 'a@example.org' });

describe('orderStates', () => {
  it('merges the repositories by date, each commit applied on the state before it, the last state the first bad night', () => {
    const states = orderStates(['dask', 'distributed'], { dask: 'd0', distributed: 'x0' }, {
      dask: [commit('dask', 'd1', '2026-11-01T10:00:00Z'), commit('dask', 'd2', '2026-11-01T14:00:00Z')],
      distributed: [commit('distributed', 'x1', '2026-11-01T12:00:00Z')],
    });
    expect(states.map((s) => s.commits)).toEqual([
      { dask: 'd0', distributed: 'x0' },
      { dask: 'd1', distributed: 'x0' },
      { dask: 'd1', distributed: 'x1' },
      { dask: 'd2', distributed: 'x1' },
    ]);
    expect(states.map((s) => s.change?.sha)).toEqual([undefined, 'd1', 'x1', 'd2']);
  });

  it("keeps git's order within a repository when its dates go backwards (a rebase)", () => {
    const states = orderStates(['a'], { a: 'a0' }, { a: [commit('a', 'a1', '2026-11-02T00:00:00Z'), commit('a', 'a2', '2026-11-01T00:00:00Z')] });
    expect(states.map((s) => s.change?.sha)).toEqual([undefined, 'a1', 'a2']);
  });
});

describe('one step', () => {
  const levels = estimateLevels([10, 10.5, 9.5, 10.2, 9.8], [13, 13.5, 12.5, 13.2, 12.8]);

  it('needs more repeats from a noisier series, never fewer than the minimum', () => {
    expect(requiredRepeats(levels, defaultDecisionPolicy)).toBe(defaultDecisionPolicy.minRepeats);
    expect(requiredRepeats({ ...levels, sigma: 3 }, defaultDecisionPolicy)).toBe(defaultDecisionPolicy.maxRepeats);
    expect(requiredRepeats({ good: 10, bad: 13, sigma: 1 }, defaultDecisionPolicy)).toBe(4);
  });

  it('decides good, bad or partial, and asks for more while undecided', () => {
    expect(decideStep([10.1], levels, defaultDecisionPolicy).verdict).toBe('more');
    expect(decideStep([10.1, 9.9, 10.3], levels, defaultDecisionPolicy).verdict).toBe('good');
    expect(decideStep([13.1, 12.9, 13], levels, defaultDecisionPolicy).verdict).toBe('bad');
    expect(decideStep([11.5, 11.6, 11.4, 11.5], levels, defaultDecisionPolicy).verdict).toBe('partial');
  });

  it('calls a candidate undecided at the cap', () => {
    const noisy = { good: 10, bad: 11, sigma: 2 };
    expect(decideStep(Array.from({ length: defaultDecisionPolicy.maxRepeats }, (_, i) => (i % 2 ? 9 : 12)), noisy, defaultDecisionPolicy).verdict).toBe('undecided');
  });
});

describe('bisect on a simulated target (16 commits, CV 10%)', () => {
  it('names the planted commit and confirms it against its parent', async () => {
    const port = simulatedPort({ base: 10, steps: { 11: 0.3 }, cv: 0.1, seed: 7 });
    const result = await bisect(port, { mode: 'metric', last: 16, priorNoise: 0.1 });
    expect(result.outcome).toEqual({ kind: 'culprit', state: 11 });
    expect(result.steps.filter((s) => s.kind === 'step').length).toBeLessThanOrEqual(5);
    expect(result.confirmation).toMatchObject({ before: 10, after: 11, confirmed: true });
    expect(result.confirmation!.ratio!.low).toBeGreaterThan(1);
    expect(result.repeats).toBe(port.measured.length);
  });

  it('says "not reproduced" when good and bad do not differ, and names no commit', async () => {
    const result = await bisect(simulatedPort({ base: 10, steps: {}, cv: 0.1, seed: 3 }), { mode: 'metric', last: 16, priorNoise: 0.1 });
    expect(result.outcome).toEqual({ kind: 'not-reproduced' });
    expect(result.confirmation).toBeUndefined();
  });

  it('reports a change made in two commits as spread over them', async () => {
    const result = await bisect(simulatedPort({ base: 10, steps: { 5: 0.5, 12: 0.5 }, cv: 0.03, seed: 2 }), { mode: 'metric', last: 16 });
    expect(result.outcome).toEqual({ kind: 'spread', from: 5, to: 12 });
  });

  it('bisects a failure by pass/fail, one repeat a step', async () => {
    const port = simulatedPort({ base: 10, steps: {}, cv: 0.1, seed: 1, failsFrom: 6 });
    const result = await bisect(port, { mode: 'pass-fail', last: 16 });
    expect(result.outcome).toEqual({ kind: 'culprit', state: 6 });
    expect(result.confirmation).toMatchObject({ beforeFailures: 0, afterFailures: 1, confirmed: true });
    expect(result.repeats).toBeLessThanOrEqual(2 + 5 + 2);
  });

  it('reruns last good against first bad as one interleaved A/B', async () => {
    const port = simulatedPort({ base: 10, steps: { 3: 0.4 }, cv: 0.1, seed: 5 });
    const result = await rerun(port, { mode: 'metric', last: 16 });
    expect(result.confirmation).toMatchObject({ before: 0, after: 16, confirmed: true });
    expect(port.measured.slice(0, 4)).toEqual([0, 16, 16, 0]);
  });
});
