/**
 * How numbers are stored in the site's data files (compact, in integer units) and rounded for
 * charts, and where long names may break, shared by the build and the client scripts. Their text
 * is src/format's. Pure.
 *
 * @module
 */

/** Rounds to five significant digits: the data files stay small and no chart can show more. */
export function compact(value: number): number {
  return Number(value.toPrecision(5));
}

/**
 * The power of ten that makes every value of a series an integer with five significant digits
 * for the largest: "55138" instead of "551380000" or "30.123", a third less to download.
 */
export function decimalExponent(values: Iterable<number>): number {
  let largest = 0;
  for (const v of values) largest = Math.max(largest, Math.abs(v));
  return largest > 0 ? Math.floor(Math.log10(largest)) - 4 : 0;
}

/**
 * 10^|exponent|: what `toUnits` and `fromUnits` multiply or divide by; a loop over many values of
 * one exponent takes it once (a power per value was 5 times the cost of the conversion).
 */
export const unitPower = (exponent: number) => 10 ** Math.abs(exponent);
/** A value in units of 10^exponent, and back. */
export const toUnits = (value: number, exponent: number, power = unitPower(exponent)) => Math.round(exponent < 0 ? value * power : value / power);
export const fromUnits = (units: number, exponent: number, power = unitPower(exponent)) => (exponent < 0 ? units / power : units * power);

/**
 * A name cut after each underscore, dot and slash (`managed_`, `memory_`, `peak`): where a dense
 * table may break it. An unbreakable name sets its column's width, and long names (an asv
 * benchmark's `form_benchmarks.form_validate.benchmark.FormValidate.time_form_invalid`) pushed
 * the tables past the page.
 */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[_./])/);
}
