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

export const shortSha = (sha: string) => sha.slice(0, 8);
