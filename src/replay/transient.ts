/**
 * Whether a shift stayed: issue 30's yardstick of a transient issue. The medians of the results
 * before the first bad one and of the results from it on differ by less than 5%: whatever was
 * filed, the series came back. Pure.
 *
 * @module
 */
import { median } from 'simple-statistics';

export interface TransientRule {
  /** Results on each side of the first bad one. */
  around: number;
  /** Medians closer than this share are "the same level". */
  within: number;
}

export const transientRule: TransientRule = { around: 20, within: 0.05 };

/**
 * `values`: one result per night (oldest first); `firstBad`: the index of the first bad one.
 * Undefined when either side has fewer than half the results the rule asks for: too close to
 * the history's start or end to tell.
 */
export function isTransient(values: readonly number[], firstBad: number, rule: TransientRule = transientRule): boolean | undefined {
  const before = values.slice(Math.max(0, firstBad - rule.around), firstBad);
  const after = values.slice(firstBad, firstBad + rule.around);
  const fewest = Math.ceil(rule.around / 2);
  if (before.length < fewest || after.length < fewest) return undefined;
  return Math.abs(median(after) / median(before) - 1) < rule.within;
}
