/**
 * A simulated target for the bisect: states whose level steps up at planted commits, with
 * seeded lognormal noise and an optional slow drift of the machine. What the quality bench and
 * the search's tests measure the search on, in milliseconds instead of cluster minutes. Pure.
 *
 * @module
 */
import { createRandom, standardNormal } from '../stats/index.js';
import type { MeasurePort, Observation } from './search.js';

export interface SimulatedTarget {
  /** Level of state 0. */
  base: number;
  /** state -> relative slowdown it adds (0.5 = 50% slower from that state on). */
  steps: Record<number, number>;
  /** Noise of one repeat (coefficient of variation). */
  cv: number;
  /** Relative drift of the machine per repeat measured (e.g. 0.001 = 0.1% per repeat). */
  drift?: number;
  /** States from which the workload fails. */
  failsFrom?: number;
  seed: number;
  /** Seconds one repeat costs (the cluster minutes of a bisect). */
  secondsPerRepeat?: number;
}

/** A measuring port over a simulated target, counting what it measured. */
export function simulatedPort(target: SimulatedTarget): MeasurePort & { measured: number[] } {
  const random = createRandom(target.seed);
  const measured: number[] = [];
  const gaussian = () => standardNormal(random);
  return {
    measured,
    measure(state: number): Promise<Observation> {
      measured.push(state);
      if (target.failsFrom !== undefined && state >= target.failsFrom) return Promise.resolve({ error: 'planted failure' });
      const slowdown = Object.entries(target.steps).reduce((level, [from, step]) => (state >= Number(from) ? level * (1 + step) : level), 1);
      const drift = 1 + (target.drift ?? 0) * measured.length;
      const noise = Math.exp(target.cv * gaussian() - (target.cv * target.cv) / 2);
      return Promise.resolve({ value: target.base * slowdown * drift * noise });
    },
  };
}
