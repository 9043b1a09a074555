import { describe, expect, it } from 'vitest';
import { machineChangeOf } from '../../src/detect/machine-change.js';
import { machineNight } from '../../src/detect/machine-night.js';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import type { ResultRow } from '../../src/history/types.js';
import { nightAt, runNights, seriesRows } from './helpers.js';

const fast = 'AMD EPYC 7763, 4 cores, 16GiB';
const slow = 'Intel Xeon 8272CL, 4 cores, 16GiB';

/** The rows with each night's run on the machine class `classOf(night index)`, its values scaled by that class's speed. */
function onMachines(rows: readonly ResultRow[], classOf: (i: number) => string, speed: Record<string, number>): ResultRow[] {
  const index = (night: string) => Math.round((Date.parse(`${night}T00:00:00Z`) - Date.parse(`${nightAt(0)}T00:00:00Z`)) / 86_400_000);
  return rows.map((row) => {
    const machineClass = classOf(index(row.night));
    return { ...row, machineClass, value: row.value === null ? null : row.value * speed[machineClass]! };
  });
}
const speeds = { [fast]: 1, [slow]: 1.5 };
const withoutClasses = (rows: readonly ResultRow[]) => rows.map(({ machineClass: _dropped, ...row }) => row);

describe('nights on several machine classes', () => {
  // Runners alternate between a fast and a 1.5x slower CPU, a few nights of each in turn.
  const alternating = (i: number) => (Math.floor(i / 3) % 2 === 0 ? fast : slow);

  it('are compared within their class once the lookback holds enough of them: a planted +30% is found (the mix hid it), the mix alone opens nothing', () => {
    const rows = onMachines(seriesRows({ seed: 3, nights: 70, repeats: 3, cv: 0.03, steps: [{ from: 55, factor: 1.3 }] }), alternating, speeds);
    const run = runNights(rows, policy, 25, 69);
    const before = run.verdicts.slice(0, 55 - 25).flat();
    expect(before.filter((v) => v.kind === 'regression' || v.kind === 'improvement')).toEqual([]);
    expect(before.every((v) => (v.machine?.sameClassNights ?? 0) >= policy.minBaselineNights && !v.machine!.changed)).toBe(true);
    const found = run.episodes.filter((e) => e.kind === 'regression');
    expect(found).toHaveLength(1);
    expect(found[0]!.firstBad.night >= nightAt(55) && found[0]!.firstBad.night <= nightAt(57)).toBe(true);
    expect(found[0]!.firstBad.machineClass).toBe(found[0]!.lastGood.machineClass);

    // The same values without their classes: the mix's spread is taken for noise, and hides the step.
    const blind = runNights(withoutClasses(rows), policy, 25, 69);
    expect(blind.verdicts.flat().every((v) => v.machine === undefined)).toBe(true);
    expect(blind.episodes.filter((e) => e.kind === 'regression' && e.firstBad.night <= nightAt(57))).toEqual([]);
  });

  it('with fewer nights of a class in the lookback than a baseline needs are compared with every class, and a change across classes is marked', () => {
    // Four weeks on the fast CPU, then the pool moves to the slow one: its first night has no other of its class.
    const rows = onMachines(seriesRows({ seed: 5, nights: 40, repeats: 3, cv: 0.03 }), (i) => (i < 30 ? fast : slow), speeds);
    const run = runNights(rows, policy, 29, 33);
    const opened = run.changes.flat().flatMap((c) => (c.action === 'open' ? [c.episode] : []));
    expect(opened).toHaveLength(1);
    expect(opened[0]!).toMatchObject({ firstBad: { night: nightAt(30), machineClass: slow }, lastGood: { night: nightAt(29), machineClass: fast } });
    const night30 = run.verdicts[1]![0]!;
    expect(night30.machine).toEqual({ machineClass: slow, baselineClass: fast, changed: true });
    expect(machineNight(nightAt(30), 'dask', [night30], policy)).toMatchObject({ machine: true, signs: ['machine-changed'], reason: expect.stringContaining(`machine changed: ran on ${slow}, its baseline on ${fast} (1 of 1 series)`) });
    expect(machineNight(nightAt(29), 'dask', run.verdicts[0]!, policy)).toMatchObject({ machine: false, signs: [] });
  });

  it('of unknown class compare as before', () => {
    expect(machineChangeOf({ machineClass: fast }, {})).toBeUndefined();
    expect(machineChangeOf({}, { machineClass: fast })).toEqual({ machineClass: fast, changed: false });
    expect(machineChangeOf({ machineClass: fast }, { machineClass: fast })).toEqual({ machineClass: fast, baselineClass: fast, changed: false });
  });
});
