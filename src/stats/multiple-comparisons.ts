/**
 * Multiple-comparison correction across the benchmarks of one run.
 *
 * Why: a nightly run or an A/B test compares dozens of benchmarks at once;
 * at alpha = 0.05 per test, 100 unchanged benchmarks give ~5 false alarms
 * per run. Benjamini-Hochberg controls the false discovery rate (the
 * expected share of flagged benchmarks that are false alarms) instead of the
 * much stricter family-wise error rate, which keeps power for real
 * regressions.
 *
 * @module
 */

/** Result of {@link benjaminiHochberg}, both arrays in input order. */
export interface BenjaminiHochbergResult {
  /** BH-adjusted p-values ("q-values" in the loose sense), monotone in p, capped at 1. */
  adjusted: number[];
  /** `adjusted[i] <= q`: the tests declared discoveries at FDR level `q`. */
  rejected: boolean[];
}

/**
 * Benjamini-Hochberg step-up procedure.
 *
 * With p-values sorted ascending, `p_(1) <= ... <= p_(m)`, the adjusted
 * value of rank i is `min_{j >= i} min(1, m * p_(j) / j)`, the same as R's
 * `p.adjust(p, "BH")`. Rejecting `adjusted <= q` is the BH procedure, which
 * keeps the FDR at or below `q * m0 / m` for independent (or positively
 * dependent) tests, m0 being the number of true nulls.
 *
 * @param pValues - p-values in `[0, 1]`; may be empty.
 * @param q - Target false discovery rate in (0, 1]; default 0.05.
 * @returns Adjusted p-values and rejection flags, in input order.
 * @throws RangeError if a p-value is outside `[0, 1]` (or NaN) or `q` is
 *   outside (0, 1].
 */
export function benjaminiHochberg(pValues: readonly number[], q = 0.05): BenjaminiHochbergResult {
  if (!(q > 0 && q <= 1)) {
    throw new RangeError(`benjaminiHochberg: q must be in (0, 1], got ${q}`);
  }
  const m = pValues.length;
  for (let i = 0; i < m; i++) {
    const p = pValues[i];
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
      throw new RangeError(`benjaminiHochberg: p-values must be in [0, 1]; element ${i} is ${String(p)}`);
    }
  }
  const order = Array.from({ length: m }, (_, i) => i).sort((i, j) => pValues[i]! - pValues[j]!);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const index = order[rank - 1]!;
    running = Math.min(running, (m * pValues[index]!) / rank);
    adjusted[index] = running;
  }
  return { adjusted, rejected: adjusted.map((p) => p <= q) };
}
