/**
 * The seed system's detection rule, the yardstick every detection bench prints beside nightbench.
 */

/**
 * The seed system's rule, streamed: a point starts a change when it and the next 2 are all beyond
 * mean +/- 3 sd of the 10 points before it (on the same side); the 10 points before a later
 * change must come after the last one found. With `minChange` (relative, 0.1 for 10%), the
 * three points' mean must also differ from the ten's by that much: the rule with the size floor
 * a detector with a threshold has, so that the two are compared on the same question.
 */
export function seedRuleChanges(values: readonly number[], minChange = 0): number[] {
  const found: number[] = [];
  for (let i = 10; i + 2 < values.length; i++) {
    if (found.length > 0 && i - found.at(-1)! < 10) continue;
    const before = values.slice(i - 10, i);
    const mean = before.reduce((a, b) => a + b, 0) / before.length;
    const sd = Math.sqrt(before.reduce((a, b) => a + (b - mean) ** 2, 0) / (before.length - 1));
    const side = (v: number) => (v > mean + 3 * sd ? 1 : v < mean - 3 * sd ? -1 : 0);
    const s = side(values[i]!);
    const large = Math.abs((values[i]! + values[i + 1]! + values[i + 2]!) / 3 / mean - 1) >= minChange;
    if (s !== 0 && side(values[i + 1]!) === s && side(values[i + 2]!) === s && large) found.push(i);
  }
  return found;
}
