/**
 * Where a found shift began, as a range of nights that holds it: the last night surely at the
 * old level and the first night surely at the new one. Pure.
 *
 * Why not simply the night the test split at: a step about the size of the noise can measure low
 * on its first night (a planted +15% in distributed measured -6% on its first night and +36% on
 * the next), so the split lands a night late and a range from the night before it misses the
 * culprit. The change may have begun on any night the data cannot tell apart: the range reaches
 * over them and says so (`uncertainNights`), so the bisect starts early enough.
 *
 * "Surely": the range is the change night's {@link rangeCredibility} credible interval. Each
 * candidate first night of the new level is weighed by the likelihood of every night from it on
 * being at the new level rather than the old one (normal noise of one nightly level, every
 * candidate alike before the data), and the range leaves out only the earliest and the latest
 * candidates that together carry 1 - rangeCredibility of that weight. Why weigh the nights
 * together rather than stop the walk back at the first night that looks clearly old: the shift
 * test picks the split that stands out most, so the nights beside it are the likeliest to have
 * measured on the wrong side, and one such night ended the walk a night late. With a "clear"
 * night 50 times likelier at its level, the range missed the culprit of 38 of the 715 synthetic
 * steps found after their third night (94.7%); the credible interval misses 26 (96.4%), and
 * where the step is a fraction of the noise its ranges are shorter, because it does not reach
 * back to the search's limit when no single night is clear (docs/detection-design.md).
 *
 * @module
 */

/** The share of the change night's weight that the range holds: 0.5% is left out on each side. */
export const rangeCredibility = 0.99;

/** A shift's range of nights, as indices into the levels it was found in. */
export interface SuspectNights {
  /** The last night surely at the old level (-1 when none in the levels searched). */
  lastGood: number;
  /** The first night surely at the new level, at or after `lastGood` + 1 (tonight at the latest). */
  firstBad: number;
  /** Nights strictly between the two: the change may have begun on any of them. */
  uncertainNights: number;
}

/**
 * The range of the shift from `oldLevel` to `newLevel` (log units, noise `noise` per night) that
 * ends tonight (the last of `levels`). The candidates for its first night are the last
 * `maxNights` nights, so a step the size of a fraction of the noise still gets a bounded range
 * (the earliest candidate also stands for a change before it).
 */
export function suspectNights(levels: readonly number[], oldLevel: number, newLevel: number, noise: number, maxNights: number): SuspectNights {
  const last = levels.length - 1;
  const first = Math.max(0, last - maxNights + 1);
  const weights = firstNightWeights(levels.slice(first), oldLevel, newLevel, noise);
  const outside = (1 - rangeCredibility) / 2;
  const earliest = first + firstIndexBeyond(weights, outside);
  const latest = first + weights.length - 1 - firstIndexBeyond([...weights].reverse(), outside);
  return { lastGood: earliest - 1, firstBad: latest, uncertainNights: Math.max(0, latest - earliest) };
}

/**
 * For each night of `levels`, the weight (summing to 1) of its being the first at the new level:
 * proportional to the likelihood ratio, new level against old, of it and every night after it.
 */
function firstNightWeights(levels: readonly number[], oldLevel: number, newLevel: number, noise: number): number[] {
  const middle = (oldLevel + newLevel) / 2;
  const step = newLevel - oldLevel;
  // Nights that never vary are surely at the level they sit at: weighed as if the noise were a
  // hundredth of the step.
  const scale = noise > 0 ? noise : Math.abs(step) / 100 || 1;
  const logWeights = new Array<number>(levels.length);
  let sum = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    sum += ((levels[i]! - middle) * step) / (scale * scale);
    logWeights[i] = sum;
  }
  const top = Math.max(...logWeights);
  const weights = logWeights.map((log) => Math.exp(log - top));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => weight / total);
}

/** The index of the first weight at which the running sum from the start exceeds `share`. */
function firstIndexBeyond(weights: readonly number[], share: number): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    if (sum > share) return i;
  }
  return weights.length - 1;
}
