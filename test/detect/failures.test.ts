import { describe, expect, it } from 'vitest';
import { brokenFingerprint, findBroken, findBrokenByFingerprint, type NightOutcome } from '../../src/detect/failures.js';

const night = (n: number, passed: boolean, workload = 'w'): NightOutcome => ({
  suite: 's',
  workload,
  night: `2026-11-${String(n).padStart(2, '0')}`,
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
  });

  it('breaks a workload that fails from its very first night, with no passing night', () => {
    const [broken] = findBroken([night(1, false), night(2, false)], '2026-11-02');
    expect(broken).toMatchObject({ state: 'failing', firstFailing: { night: '2026-11-01' }, fingerprint: brokenFingerprint({ suite: 's', workload: 'w', night: '2026-11-01' }) });
    expect(broken!.lastPassing).toBeUndefined();
    expect(findBroken([night(1, true), night(2, true)], '2026-11-02')).toEqual([]);
  });

  it('still reports it fixed on later passing nights, with the same fingerprint, until the window closes', () => {
    // The night it first passed again was not reported (a skipped issue step): the next ones close it.
    const history = [night(1, true), night(2, false), night(3, false), night(4, true), night(5, true), night(9, true)];
    const fingerprint = brokenFingerprint({ suite: 's', workload: 'w', night: '2026-11-02' });
    expect(findBroken(history, '2026-11-05')).toMatchObject([{ state: 'fixed', fingerprint, latest: { night: '2026-11-05' } }]);
    expect(findBroken(history, '2026-11-09', '2026-11-01')).toMatchObject([{ state: 'fixed', fingerprint }]);
    expect(findBroken(history, '2026-11-09', '2026-11-04'), 'failed last before the window').toEqual([]);
  });

  it('keeps the first failing night however long it fails', () => {
    const history = [night(1, true), ...Array.from({ length: 28 }, (_, i) => night(i + 2, false)), night(30, true)];
    expect(findBroken(history, '2026-11-30')).toMatchObject([{ state: 'fixed', lastPassing: { night: '2026-11-01' }, firstFailing: { night: '2026-11-02' } }]);
  });

  it('counts a night failing in one shard and passing in another as failing', () => {
    const outcomes = [night(1, true), { ...night(2, true), runId: 'run-2a' }, { ...night(2, false), runId: 'run-2b' }];
    expect(findBroken(outcomes, '2026-11-02')).toMatchObject([{ state: 'failing', firstFailing: { runId: 'run-2b' } }]);
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
