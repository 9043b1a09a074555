/**
 * A confidence interval for the median that assumes nothing about the distribution: the order
 * statistics whose ranks the binomial(n, 1/2) distribution gives. Why not a bootstrap: with the
 * dozens of values a bench collects, the exact interval costs nothing, needs no seed and never
 * claims more coverage than it has.
 *
 * @module
 */
import { median } from 'simple-statistics';
import { assertFiniteSample } from './validate.js';

/** The median of a sample and an interval that covers the population median with at least `coverage`. */
export interface MedianInterval {
  readonly n: number;
  readonly median: number;
  readonly low: number;
  readonly high: number;
  /**
   * The interval's exact coverage, at least the level asked for; with 5 values or fewer even the
   * whole range covers less than 95% (1 - 2 / 2^n), and this says so.
   */
  readonly coverage: number;
}

/**
 * The interval [x(k), x(n+1-k)] of the sorted values with the largest k whose coverage,
 * `1 - 2 P(Binomial(n, 1/2) <= k - 1)`, is at least `level` (k = 1, the whole range, when none is).
 */
export function medianInterval(values: readonly number[], level = 0.95): MedianInterval {
  assertFiniteSample(values, 'medianInterval: values');
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  // P(Binomial(n, 1/2) = i) in logs, so that large n does not underflow.
  const probability = (i: number) => Math.exp(logChoose(n, i) - n * Math.LN2);
  let k = 1;
  let tail = probability(0); // P(Binomial <= k - 1)
  while (2 * (k + 1) <= n + 1) {
    const next = tail + probability(k);
    if (1 - 2 * next < level) break;
    tail = next;
    k++;
  }
  return { n, median: median(sorted), low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * tail };
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}
