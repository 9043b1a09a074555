/**
 * Seeded pseudo-random numbers.
 *
 * Everything in `src/stats` that needs randomness (the bootstrap, the test
 * simulations) takes a `() => number` source instead of calling
 * `Math.random`, so that every analysis and every test is reproducible from
 * a seed that can be recorded next to the result.
 *
 * @module
 */

/**
 * A source of uniform random numbers in `[0, 1)`, the same contract as
 * `Math.random`.
 */
export type RandomSource = () => number;

/**
 * Create a seeded pseudo-random number generator: mulberry32 (Tommy Ettinger,
 * public domain), a 32-bit state generator with period 2^32.
 *
 * Why mulberry32: it is tiny, fast, well known and good enough for the
 * Monte Carlo work done here (bootstrap resampling, simulations with a few
 * million draws). It is not cryptographic and should not be used where
 * unpredictability matters.
 *
 * @param seed - Any finite number. It is reduced to an unsigned 32-bit
 *   integer (`seed >>> 0`), so seeds that differ by a multiple of 2^32, or
 *   only in their fractional part, give the same stream.
 * @returns A function returning uniform numbers in `[0, 1)` with 32 bits of
 *   resolution; the same seed always yields the same sequence.
 * @throws RangeError if `seed` is not a finite number.
 */
export function createRandom(seed: number): RandomSource {
  if (!Number.isFinite(seed)) {
    throw new RangeError(`createRandom: seed must be a finite number, got ${seed}`);
  }
  let state = seed >>> 0;
  return function mulberry32(): number {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A standard normal draw from two of `random`'s uniform ones (Box-Muller, the cosine half): the
 * one normal generator of the simulations, benches and tests, so that a seed gives the same
 * noise wherever it is drawn.
 */
export function standardNormal(random: RandomSource): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
