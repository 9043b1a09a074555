/**
 * Data files cut to size: the site's pages load their data as scripts, and no file may pass 2 MB
 * (a browser parses one script at a time, and a host may refuse larger files). Pure.
 *
 * @module
 */

/** A part is closed once its items' JSON reaches this many bytes, well under the 2 MB limit. */
export const bytesPerPart = 1_000_000;

/**
 * `items` in consecutive parts of at most `maxItems` items, each closed once the sizes of its
 * items (by default their JSON's length) reach `maxBytes`. Order is kept; no part is empty.
 */
export function splitBySize<T>(items: readonly T[], maxItems = Number.POSITIVE_INFINITY, maxBytes = bytesPerPart, size: (item: T) => number = (item) => JSON.stringify(item).length + 1): T[][] {
  const parts: T[][] = [];
  let part: T[] | undefined;
  let bytes = 0;
  for (const item of items) {
    if (part === undefined || part.length >= maxItems || bytes >= maxBytes) {
      parts.push((part = []));
      bytes = 0;
    }
    part.push(item);
    bytes += size(item);
  }
  return parts;
}

/**
 * The parts as a page reads them back: the data files set `window.<GLOBAL>[part number]` in
 * whatever order the browser ran them; the part numbers give the order.
 */
export function partsInOrder<T>(parts: Readonly<Record<string, T>>): T[] {
  return Object.keys(parts)
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => parts[key]!);
}
