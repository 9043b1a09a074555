/**
 * The index's rows as data files for its page script, which renders only the rows in view: at
 * 20,000 series an HTML table of every row took megabytes and seconds to lay out. Rows are
 * tuples (no repeated keys) in parts of at most `partBytes` of JSON, so no file grows past about
 * 1 MB however many series a site has. The budget is in bytes, not rows: a row's status note runs
 * from nothing to some 400 characters, and 10,000 rows of long notes made 4.2 MB parts at 20,000
 * series. Pure.
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

/** JSON bytes of one part at most (a part always holds at least one row), half the 2 MB a file may have. */
export const partBytes = 1_000_000;

/** The index rows, already in the index's order, as data files' parts. */
export function indexDataParts(rows: readonly IndexRow[], maxBytes = partBytes): IndexDataPart[] {
  const parts: IndexDataPart[] = [];
  let part: IndexDataPart = { variants: [], rows: [] };
  let variants = new Map<string, number>();
  let bytes = emptyPartBytes;
  for (const row of rows) {
    let variant = variants.get(row.variant.id);
    let data = dataRow(row, variant ?? part.variants.length);
    let size = jsonBytes(data, variant === undefined ? row.variant : undefined);
    if (part.rows.length > 0 && bytes + size > maxBytes) {
      parts.push(part);
      part = { variants: [], rows: [] };
      variants = new Map();
      bytes = emptyPartBytes;
      variant = undefined;
      data = dataRow(row, 0);
      size = jsonBytes(data, row.variant);
    }
    if (variant === undefined) variants.set(row.variant.id, part.variants.push(row.variant) - 1);
    part.rows.push(data);
    bytes += size;
  }
  if (part.rows.length > 0) parts.push(part);
  return parts;
}

const emptyPartBytes = JSON.stringify({ variants: [], rows: [] }).length;

/** A row's JSON bytes (a comma counted for each, so an upper bound) in its part, plus its variant's when the part does not name that yet. */
function jsonBytes(row: IndexDataRow, newVariant: Variant | undefined): number {
  return Buffer.byteLength(JSON.stringify(row)) + 1 + (newVariant ? Buffer.byteLength(JSON.stringify(newVariant)) + 1 : 0);
}

function dataRow(row: IndexRow, variant: number): IndexDataRow {
  return [
    row.suite, row.workload, row.metric, row.unit, variant, row.status, row.statusNote ?? null, row.latestNight ?? null,
    row.latest === undefined ? null : Number(row.latest.toPrecision(6)), row.change ?? null, row.noise ?? null, encodeSpark(row.spark), row.issue ?? null, row.error ?? null,
  ];
}
