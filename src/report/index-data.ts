/**
 * The index's rows as data files for its page script, which renders only the rows in view: at
 * 20,000 series an HTML table of every row took megabytes and seconds to lay out. Rows are
 * tuples (no repeated keys) in parts of at most `rowsPerPart` rows and about `bytesPerPart`
 * bytes (`data-parts.ts`), so no file grows past the site's 2 MB limit however many series a site
 * has or how long their notes are. Pure.
 *
 * @module
 */
import { bytesPerPart, splitBySize } from './data-parts.js';
import { encodeSpark } from './spark.js';
import type { IndexRow, IssueRef, SeriesStatus, Variant } from './types.js';

/** One series of the index; `variant` indexes the part's variants. */
export type IndexDataRow = [
  suite: string,
  workload: string,
  metric: string,
  unit: string,
  variant: number,
  status: SeriesStatus,
  statusNote: string | null,
  latestNight: string | null,
  latest: number | null,
  change: number | null,
  noise: number | null,
  /** `encodeSpark` of the last nightly medians. */
  spark: string,
  issue: IssueRef | null,
  error: string | null,
];

/** One data file of the index: rows in the index's order, and the variants they name. */
export interface IndexDataPart {
  variants: Variant[];
  rows: IndexDataRow[];
}

/** At most this many rows a part: about 110 bytes a row without a note, so 1.1 MB. */
export const rowsPerPart = 10_000;

/**
 * The index rows, already in the index's order, as data files' parts: a part also closes at
 * `partBytes` of rows, since a judged series' note (its verdict's reason) makes a row about 420
 * bytes, and 10,000 such rows were a 4.2 MB file.
 */
export function indexDataParts(rows: readonly IndexRow[], partSize = rowsPerPart, partBytes = bytesPerPart): IndexDataPart[] {
  // Each row's tuple is made (and measured) once; its variant is numbered within its part below.
  const tuples = rows.map((row) => ({ variant: row.variant, data: indexDataRow(row) }));
  return splitBySize(tuples, partSize, partBytes, ({ data }) => JSON.stringify(data).length + 1).map((group) => {
    const variants = new Map<string, number>();
    const part: IndexDataPart = { variants: [], rows: [] };
    for (const { variant, data } of group) {
      let index = variants.get(variant.id);
      if (index === undefined) variants.set(variant.id, (index = part.variants.push(variant) - 1));
      data[4] = index;
      part.rows.push(data);
    }
    return part;
  });
}

/** The row as a tuple, its variant numbered 0 until its part numbers it. */
function indexDataRow(row: IndexRow): IndexDataRow {
  return [
    row.suite, row.workload, row.metric, row.unit, 0, row.status, row.statusNote ?? null, row.latestNight ?? null,
    row.latest === undefined ? null : Number(row.latest.toPrecision(6)), row.change ?? null, row.noise ?? null, encodeSpark(row.spark), row.issue ?? null, row.error ?? null,
  ];
}
