import { describe, expect, it } from 'vitest';
import { brokenFingerprint, findBroken, findBrokenByFingerprint, type NightOutcome } from '../../src/detect/failures.js';

/** `workload` null: the run as a whole (it failed before any workload ran). */
const night = (n: number, passed: boolean, workload: string | null = 'w'): NightOutcome => ({
  suite: 's',
  workload: workload ?? undefined,
  night: `2026-11-0${n}`,
  runId: `run-${n}`,
  commits: { dask: `sha${n}` },
  passed,
  ...(passed ? {} : { error: 'boom' }),
});

describe('findBroken', () => {
  it('opens on the first failing night after a pass, with the range from the last pass', () => {
    const [broken] = findBroken([night(1, true), night(2, true), night(3, false)], '2026-11-03');
    expect(broken).toMatchObject({ state: 'failing', lastPassing: { night: '2026-11-02' }, firstFailing: { night: '2026-11-03' }, fingerprint: brokenFingerprint({ suite: 's', workload: 'w', night: '2026-11-03' }) });
  });

  it('keeps the same fingerprint while it keeps failing, and reports it fixed on the first pass', () => {
    const history = [night(1, true), night(2, false), night(3, false), night(4, true)];
    const [still] = findBroken(history, '2026-11-03');
    const [fixed] = findBroken(history, '2026-11-04');
    expect(still!.state).toBe('failing');
    expect(fixed!.state).toBe('fixed');
    expect(fixed!.fingerprint).toBe(still!.fingerprint);
    expect(findBroken([...history, night(5, true)], '2026-11-05')).toEqual([]);
  });

  it('ignores a workload that never passed, and one that passes', () => {
    expect(findBroken([night(1, false), night(2, false)], '2026-11-02')).toEqual([]);
    expect(findBroken([night(1, true), night(2, true)], '2026-11-02')).toEqual([]);
  });

  it('makes a night that failed before any workload one broken night, not one per workload', () => {
    const outcomes = [night(1, true, null), night(1, true, 'a'), night(1, true, 'b'), night(2, false, null), night(2, false, 'a'), night(2, false, 'b')];
    const broken = findBroken(outcomes, '2026-11-02');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ workload: undefined, state: 'failing' });
  });

  it('still reports a workload failing in one shard when another shard of the night failed before any workload', () => {
    const shard = (outcome: NightOutcome, runId: string): NightOutcome => ({ ...outcome, runId });
    const outcomes = [night(1, true, null), night(1, true, 'a'), shard(night(2, true, null), 'run-2a'), shard(night(2, false, 'a'), 'run-2a'), shard(night(2, false, null), 'run-2b')];
    expect(findBroken(outcomes, '2026-11-02')).toContainEqual(expect.objectContaining({ workload: 'a', state: 'failing' }));
  });
});

describe('findBrokenByFingerprint', () => {
  it("finds an issue's failure again, fixed or not, with its last passing and first failing nights", () => {
    const history = [night(1, true), night(2, true), night(3, false), night(4, false), night(5, true)];
    const fingerprint = brokenFingerprint({ suite: 's', workload: 'w', night: '2026-11-03' });
    expect(findBrokenByFingerprint(history, fingerprint)).toMatchObject({ fingerprint, lastPassing: { night: '2026-11-02', commits: { dask: 'sha2' } }, firstFailing: { night: '2026-11-03', commits: { dask: 'sha3' } } });
    expect(findBrokenByFingerprint(history, brokenFingerprint({ suite: 's', workload: 'w', night: '2026-11-04' })), 'a later failing night names no issue').toBeUndefined();
  });
});
