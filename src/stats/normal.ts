/**
 * Standard normal tail probabilities (internal, not re-exported).
 *
 * Why not `simple-statistics`: its `cumulativeStdNormalProbability` is a
 * lookup table with 0.01 steps in z and 4 decimals that stops at z = 3.09,
 * so every |z| above 3.09 gets the same p-value (~0.002 two-sided); and its
 * `errorFunction` evaluates the right approximation of erfc but returns
 * `1 - erfc`, so `1 - errorFunction(x)` rounds to 0 beyond z ~ 8. Both would
 * flatten strong effects into one p-value (or 0) and distort
 * Benjamini-Hochberg across many tests. Here the same Chebyshev-fitted
 * approximation (Numerical Recipes `erfcc`, fractional error < 1.2e-7 for
 * every x >= 0, the coefficients `simple-statistics` uses) is evaluated for
 * erfc directly, which keeps relative precision far into the tail.
 *
 * @module
 */

/** Complementary error function for x >= 0, fractional error < 1.2e-7. */
function erfcNonNegative(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  return (
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    )
  );
}

/**
 * Upper tail of the standard normal, `P(Z >= z)`, with a fractional error
 * below ~1.2e-7 for z >= 0 (so tiny tail probabilities stay meaningful).
 *
 * @param z - Any real number.
 * @returns A probability in `[0, 1]`.
 */
export function normalUpperTail(z: number): number {
  if (z >= 0) return Math.min(1, 0.5 * erfcNonNegative(z / Math.SQRT2));
  return 1 - 0.5 * erfcNonNegative(-z / Math.SQRT2);
}
