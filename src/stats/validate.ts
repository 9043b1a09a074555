/**
 * Input checks shared by the statistics modules (internal, not re-exported).
 *
 * Statistics over a NaN or an Infinity silently produce nonsense, and a
 * regression detector that quietly says "no change" because a timing was
 * NaN is worse than one that fails loudly, so every public function checks
 * its samples up front and throws a `RangeError`.
 *
 * @module
 */

/**
 * Throw a `RangeError` unless `values` is non-empty and every element is a
 * finite number.
 *
 * @param values - The sample to check.
 * @param what - Name used in the error message, e.g. `"mannWhitneyU: a"`.
 */
export function assertFiniteSample(values: ArrayLike<number>, what: string): void {
  if (values.length === 0) {
    throw new RangeError(`${what} must contain at least one value`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(`${what} must contain only finite numbers; element ${i} is ${String(v)}`);
    }
  }
}
