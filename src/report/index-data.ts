/**
 * The index's rows as data files for its page script, which renders only the rows in view: at
 * 20,000 series an HTML table of every row took megabytes and seconds to lay out. Rows are
 * tuples (no repeated keys) in parts of at most `rowsPerPart`, so no file grows past about
 * 1.1 MB however many series a site has. Pure.
 *
 * @module
 */
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

/** About 110 bytes a row: 10,000 rows make about 1.1 MB. */
export const rowsPerPart = 10_000;

/** The index rows, already in the index's order, as data files' parts. */
export function indexDataParts(rows: readonly IndexRow[], partSize = rowsPerPart): IndexDataPart[] {
  const parts: IndexDataPart[] = [];
  for (let from = 0; from < rows.length; from += partSize) {
    const variants = new Map<string, number>();
    const part: IndexDataPart = { variants: [], rows: [] };
    for (const row of rows.slice(from, from + partSize)) {
      let variant = variants.get(row.variant.id);
      if (variant === undefined) variants.set(row.variant.id, (variant = part.variants.push(row.variant) - 1));
      part.rows.push([
        row.suite, row.workload, row.metric, row.unit, variant, row.status, row.statusNote ?? null, row.latestNight ?? null,
        row.latest === undefined ? null : Number(row.latest.toPrecision(6)), row.change ?? null, row.noise ?? null, encodeSpark(row.spark), row.issue ?? null, row.error ?? null,
      ]);
    }
    parts.push(part);
  }
  return parts;
}
