/**
 * How numbers read on the pages, shared by the HTML templates and the client scripts. Pure.
 *
 * @module
 */

/** A relative change: "+12.3%" or "−4.0%". */
export function formatChange(change: number): string {
  return `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(1)}%`;
}

const byteUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A value with its unit, at a precision a person reads: "12.3 s", "1.52 GiB". */
export function formatValue(value: number, unit: string): string {
  if (unit === 'bytes' || unit === 'B') {
    let scaled = value;
    let index = 0;
    while (Math.abs(scaled) >= 1024 && index < byteUnits.length - 1) {
      scaled /= 1024;
      index++;
    }
    return `${Math.abs(scaled) >= 100 ? scaled.toFixed(0) : scaled.toPrecision(3)} ${byteUnits[index]}`;
  }
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

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

/** A value in units of 10^exponent, and back. */
export const toUnits = (value: number, exponent: number) => Math.round(exponent < 0 ? value * 10 ** -exponent : value / 10 ** exponent);
export const fromUnits = (units: number, exponent: number) => (exponent < 0 ? units / 10 ** -exponent : units * 10 ** exponent);

/** Rounds to a number of decimals (drill-down samples: 0.1 MiB, 0.01 cores are all a chart shows). */
export const roundTo = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export const shortSha = (sha: string) => sha.slice(0, 8);

/** A duration in hours, in the unit that reads best: "45 min", "5.0 h", "3.2 days". */
export function formatHours(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}

/** A share as a whole percentage: "83%". */
export const formatShare = (share: number) => `${Math.round(share * 100)}%`;
