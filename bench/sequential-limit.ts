/**
 * The sequential limit of bench/detect-power.ts's grid: how soon a CUSUM that *knows* the noise,
 * the old level and the step's size finds the step, its threshold set so that it spends the same
 * false-alarm budget on unchanged series as detection may (0.5 per 100 series x 60 nights, either
 * way). For a step of known size the CUSUM is the optimal sequential detector (Lorden,
 * Moustakides), so a detector that must estimate the noise and the level from 30 nights, and does
 * not know the step's size, cannot do better. It is the honest ceiling for issues 23 and 31: the
 * two-sample column beside it knows the step's night too, which no detector does.
 *
 * Monte Carlo, seeded: the threshold is the quantile of the CUSUM's maximum over unchanged nights,
 * and the power is counted on series whose step comes after `nightsBefore` unchanged nights (a
 * CUSUM that alarmed before the step is counted as a miss, as a false alarm would be).
 */
import { createRandom, standardNormal } from '../src/stats/random.js';

export interface SequentialLimitOptions {
  /** Nights of an unchanged series over which the budget is spent (60). */
  budgetNights: number;
  /** Share of unchanged series allowed one false alarm either way over `budgetNights` (0.005). */
  budget: number;
  /** Unchanged nights before the step. */
  nightsBefore: number;
  /** The found-within columns, in nights from the step's first night (1 = on it). */
  within: readonly number[];
  /** Simulated unchanged series for the threshold; a quarter as many stepped ones for the power. */
  series?: number;
  seed?: number;
}

/**
 * Share of steps of `delta` (the step in units of one night's noise) a known-parameter CUSUM finds
 * within each of `options.within` nights.
 */
export function sequentialLimit(delta: number, options: SequentialLimitOptions): number[] {
  const series = options.series ?? 40_000;
  const random = createRandom(options.seed ?? 1);
  const gaussian = () => standardNormal(random);
  // The reference value of a CUSUM tuned to a step of delta: half of it.
  const reference = delta / 2;
  const step = (sum: number, value: number) => Math.max(0, sum + value - reference);
  // Either way: the two one-sided CUSUMs share the budget, half each (their alarms hardly overlap).
  const maxima: number[] = [];
  for (let i = 0; i < series; i++) {
    let sum = 0;
    let highest = 0;
    for (let night = 0; night < options.budgetNights; night++) highest = Math.max(highest, (sum = step(sum, gaussian())));
    maxima.push(highest);
  }
  maxima.sort((a, b) => a - b);
  const threshold = maxima[Math.min(series - 1, Math.floor(series * (1 - options.budget / 2)))]!;
  const longest = Math.max(...options.within);
  const delays: number[] = [];
  for (let i = 0; i < series / 4; i++) {
    let sum = 0;
    let delay = Number.POSITIVE_INFINITY;
    for (let night = 0; night < options.nightsBefore && delay === Number.POSITIVE_INFINITY; night++) if ((sum = step(sum, gaussian())) > threshold) delay = -1;
    for (let night = 1; night <= longest && delay === Number.POSITIVE_INFINITY; night++) if ((sum = step(sum, gaussian() + delta)) > threshold) delay = night;
    delays.push(delay);
  }
  return options.within.map((nights) => delays.filter((delay) => delay >= 1 && delay <= nights).length / delays.length);
}
