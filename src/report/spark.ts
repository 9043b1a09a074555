/**
 * The index's sparklines, in two halves: the build turns a series' last nightly medians into one
 * letter per night (its whole-pixel height), and the page script turns those letters into an SVG
 * path. 20,000 sparklines as letters weigh 30 bytes each instead of a 200-byte path. Pure.
 *
 * @module
 */

export const sparkWidth = 120;
export const sparkHeight = 24;
/** A night without a value: a gap in the line. */
const gap = '.';
const firstLetter = 65; // 'A' is pixel row 0; the rows used (2..22) stay within 'A'..'Z'.

/** One letter per value: the pixel row (from the top) where the sparkline draws it; '.' where none. */
export function encodeSpark(values: readonly (number | null)[]): string {
  const present = values.filter((v): v is number => v !== null);
  if (present.length < 2) return '';
  const low = Math.min(...present);
  const high = Math.max(...present);
  const y = (v: number) => (high === low ? sparkHeight / 2 : sparkHeight - 2 - ((v - low) / (high - low)) * (sparkHeight - 4));
  return values.map((v) => (v === null ? gap : String.fromCharCode(firstLetter + Math.round(y(v))))).join('');
}

/** The SVG path of an encoded sparkline and the point of its last value; undefined when there is nothing to draw. */
export function sparkPath(encoded: string): { d: string; last: { x: number; y: number } } | undefined {
  if (encoded === '') return undefined;
  const x = (i: number) => Math.round(encoded.length === 1 ? 0 : (i / (encoded.length - 1)) * (sparkWidth - 2) + 1);
  let d = '';
  let pen = false;
  let last: { x: number; y: number } | undefined;
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === gap) {
      pen = false;
      continue;
    }
    last = { x: x(i), y: encoded.charCodeAt(i) - firstLetter };
    d += `${pen ? 'L' : 'M'}${last.x} ${last.y}`;
    pen = true;
  }
  return last && { d, last };
}
