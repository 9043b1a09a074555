import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { planRepeats } from '../../src/tune/plan.js';
import { renderTunePlan } from '../../src/tune/render.js';
import { runNights, seriesRows } from '../detect/helpers.js';

/** Tonight's verdicts of series like these, judged on night 30. */
function verdicts(...specs: { workload: string; metric?: string; cv: number; repeats: number }[]) {
  return specs.flatMap((spec, i) => runNights(seriesRows({ seed: 40 + i, nights: 31, ...spec }), policy, 30, 30).verdicts[0]!);
}

describe('planRepeats', () => {
  const judged = verdicts({ workload: 'quiet', cv: 0.01, repeats: 3 }, { workload: 'noisy', cv: 0.04, repeats: 3 }, { workload: 'noisy', metric: 'cpu_time', cv: 0.03, repeats: 3 });
  const seconds = new Map([['dask/quiet', 10], ['dask/noisy', 20]]);
  const options = { target: 0.1, nights: 3, currentRepeats: 3, warmupRepeats: 1 };

  it('gives each workload the fewest repeats at which all its series catch the target, and their cost', () => {
    const plan = planRepeats('2026-01-31', judged, seconds, policy, options);
    const [noisy, quiet] = plan.workloads;
    expect(quiet).toMatchObject({ workload: 'quiet', repeats: 1, clusterSeconds: 20, currentClusterSeconds: 40, unreachable: [] });
    // Its noisiest series sets a workload's repeats.
    const noisiest = Math.max(...noisy!.series.map((s) => s.repeats!));
    expect(noisy!.repeats).toBe(noisiest);
    expect(noisy!.repeats).toBeGreaterThan(3);
    expect(noisy!.clusterSeconds).toBe((noisy!.repeats! + 1) * 20);
    expect(plan.currentClusterSeconds).toBe(40 + 80);
    expect(plan.clusterSeconds).toBe(20 + noisy!.clusterSeconds!);
    expect(plan.suiteRepeats).toBe(noisy!.repeats);
    expect(plan.suiteClusterSeconds).toBe((noisy!.repeats! + 1) * 30);
    expect(renderTunePlan(plan)).toContain(`dask/noisy  3 -> ${noisy!.repeats}`);
  });

  it('names series no repeats bring to the target: their threshold is above it', () => {
    const firstNight = planRepeats('2026-01-31', judged, seconds, policy, { ...options, target: 0.02, nights: 1 });
    expect(firstNight.workloads.find((w) => w.workload === 'noisy')).toMatchObject({ unreachable: ['cpu_time', 'wall_time'] });
    expect(firstNight.workloads.find((w) => w.workload === 'noisy')!.repeats).toBeUndefined();
    const text = renderTunePlan(firstNight);
    expect(text).toContain('catches a 2% change on its first night');
    expect(text).toContain('cpu_time (threshold above the target), wall_time (threshold above the target)');
    // A workload without a plan keeps its repeats in the totals.
    expect(firstNight.clusterSeconds).toBe(firstNight.currentClusterSeconds);
  });

  it('leaves workloads without a recorded duration out of the totals and says so', () => {
    const plan = planRepeats('2026-01-31', judged, new Map([['dask/quiet', 10]]), policy, options);
    expect(plan.currentClusterSeconds).toBe(40);
    expect(renderTunePlan(plan)).toContain('no recorded wall time (left out of the totals): dask/noisy');
  });

  it('starts from the repeats the night ran, not the config\'s: an imported history of one value a night', () => {
    const imported = verdicts({ workload: 'imported', cv: 0.06, repeats: 1 });
    const plan = planRepeats('2026-01-31', imported, new Map([['dask/imported', 10]]), policy, options);
    const workload = plan.workloads[0]!;
    expect(workload.currentRepeats).toBe(1);
    // Today's cost is that of the one repeat it ran (and the warm-up), not of the config's 3.
    expect(workload.currentClusterSeconds).toBe(20);
    expect(renderTunePlan(plan)).toMatch(/dask\/imported +1 (->|\(keep\))/);
  });

  it('says why a young history has nothing to tune: no series has a known sensitivity', () => {
    // Judged on its 12th night: its noise is known, but not yet 17 nights for 3 to rank apart from.
    const young = runNights(seriesRows({ seed: 40, nights: 12, workload: 'quiet', cv: 0.01, repeats: 3 }), policy, 11, 11).verdicts[0]!;
    const plan = planRepeats('2026-01-12', young, seconds, policy, options);
    expect(plan).toMatchObject({ workloads: [], unjudgedSeries: 1, reachKnownFrom: 17 });
    expect(renderTunePlan(plan).split('\n')[1]).toBe("no series of this night has a known sensitivity (1 series without one: too new at their level, what a series catches being known from its 17th night there, or no usable value tonight): nothing to tune");
  });
});
