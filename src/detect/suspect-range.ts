/**
 * Where a found shift began, as a range of nights that holds it: the last night clearly at the
 * old level and the first night clearly at the new one. Pure.
 *
 * Why not simply the night the test split at: a step about the size of the noise can measure low
 * on its first night (a planted +15% in distributed measured -6% on its first night and +36% on
 * the next), so the split lands a night late and a range from the night before it misses the
 * culprit. Every night between the two clear ones is ambiguous, within noise of both levels: the
 * range reaches over them and says so (`uncertainNights`), so the bisect starts early enough.
 *
 * "Clearly": the night's level is at least `clearLikelihoodRatio` times likelier under one level
 * than under the other, with normal noise of one nightly level.
 *
 * @module
 */

/**
 * How much likelier a night must be at one level than the other to count as clearly there. The
 * shift test picks the split that stands out most, so the nights beside it are the likeliest to
 * have measured on the wrong side: at 20 a first shifted night that came out low ended the walk
 * back a night late, and the range missed the culprit in 4% of the synthetic steps of 10-30%
 * (2% at 50, 1.3% at 100 with ranges a night longer again; docs/detection-design.md).
 */
export const clearLikelihoodRatio = 50;

/** A shift's range of nights, as indices into the levels it was found in. */
export interface SuspectNights {
  /** The last night clearly at the old level (-1 when none in the levels given). */
  lastGood: number;
  /** The first night clearly at the new level, at or after `lastGood` + 1 (tonight at the latest). */
  firstBad: number;
  /** Nights strictly between the two: ambiguous, the change may have begun on any of them. */
  uncertainNights: number;
}

/**
 * The range of the shift from `oldLevel` to `newLevel` (log units, noise `noise` per night) that
 * ends tonight (the last of `levels`): walking back from tonight, the nights up to the first one
 * clearly at the old level are the shifted or ambiguous ones; the first clearly shifted night
 * among them starts the range. At most `maxNights` nights back from tonight are searched, so a
 * step the size of a fraction of the noise (never clearly either) still gets a bounded range.
 */
export function suspectNights(levels: readonly number[], oldLevel: number, newLevel: number, noise: number, maxNights: number): SuspectNights {
  const last = levels.length - 1;
  let lastGood = -1;
  let firstBad = last;
  for (let i = last; i >= 0 && last - i < maxNights; i--) {
    const at = clearLevel(levels[i]!, oldLevel, newLevel, noise);
    if (at === 'old') {
      lastGood = i;
      break;
    }
    if (at === 'new') firstBad = i;
  }
  if (lastGood < 0) lastGood = Math.max(-1, last - maxNights);
  return { lastGood, firstBad, uncertainNights: Math.max(0, firstBad - lastGood - 1) };
}

/**
 * Which of two levels (log units) a night at `level` is clearly at, with normal noise `noise` of
 * one nightly level: its log likelihood ratio, `(level - middle) * step / noise^2`, beyond
 * `ln(clearLikelihoodRatio)` either way; `undefined` when it is within noise of both.
 */
export function clearLevel(level: number, oldLevel: number, newLevel: number, noise: number): 'old' | 'new' | undefined {
  const evidence = (level - (oldLevel + newLevel) / 2) * (newLevel - oldLevel);
  const bar = Math.log(clearLikelihoodRatio) * noise * noise;
  if (evidence > 0 && evidence >= bar) return 'new';
  if (evidence < 0 && -evidence >= bar) return 'old';
  return undefined;
}
