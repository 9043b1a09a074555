/**
 * Student's t on the standard normal scale.
 *
 * Why: a t statistic whose noise was estimated from a dozen nights has heavier tails than a z
 * (t = 4 with 10 degrees of freedom is as likely as z = 3.0). Converting it to the z of equal
 * tail probability lets one threshold hold the same false-alarm rate whether a series has 10
 * nights of history or 60. Wallace's (1959) approximation is accurate to about 0.01 in z for
 * 5 or more degrees of freedom over the range detection uses (|t| up to 10).
 *
 * @module
 */

/** The z with the same tail probability as `t` with `degreesOfFreedom` (> 0); same sign as `t`. */
export function tAsZ(t: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0)) throw new RangeError(`tAsZ: degrees of freedom must be > 0, got ${degreesOfFreedom}`);
  if (!Number.isFinite(t)) return t;
  const nu = degreesOfFreedom;
  return Math.sign(t) * ((8 * nu + 1) / (8 * nu + 3)) * Math.sqrt(nu * Math.log1p((t * t) / nu));
}

/** The t with `degreesOfFreedom` whose tail probability is that of `z`: the inverse of {@link tAsZ}. */
export function zAsT(z: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0)) throw new RangeError(`zAsT: degrees of freedom must be > 0, got ${degreesOfFreedom}`);
  if (!Number.isFinite(z)) return z;
  const nu = degreesOfFreedom;
  const scaled = z / ((8 * nu + 1) / (8 * nu + 3));
  return Math.sign(z) * Math.sqrt(nu * Math.expm1((scaled * scaled) / nu));
}
