/**
 * The synthetic suite of detection's quality figures (bench/detect-quality.ts), shared with the
 * benches that judge what happens after detection (bench/confirm-quality.ts): unchanged series
 * for false alarms, and one step for power, each seeded.
 */
import type { ResultRow } from '../src/history/types.js';
import { seriesRows } from '../test/detect/helpers.js';

/** Unchanged series: false alarms per this many series of `unchangedNights` nights at CV 5%. */
export const unchangedSeries = 1000;
export const unchangedNights = 60;
export const unchangedCv = 0.05;

export function unchangedRows(seed: number, repeats: number): ResultRow[] {
  return seriesRows({ seed: seed * 7 + repeats, nights: unchangedNights, repeats, cv: unchangedCv });
}

/** Steps: `stepTrials` series per case, the step on night index `stepNight`, judged for 3 nights. */
export const stepCases = [{ factor: 1.15, cv: 0.03 }, { factor: 1.3, cv: 0.1 }] as const;
export const stepTrials = 300;
export const stepNight = 30;

export function stepRows(seed: number, repeats: number, step: { factor: number; cv: number }): ResultRow[] {
  return seriesRows({ seed: 90_000 + seed * 13 + repeats, nights: stepNight + 3, repeats, cv: step.cv, steps: [{ from: stepNight, factor: step.factor }] });
}
