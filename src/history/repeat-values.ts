/**
 * A repeat's values as its row stores them (`repeats.metric_values`, migration 026): one JSON
 * array of `[metric, value, unit]` triples, ordered by metric. Kept in the repeat's row because
 * they are written with it, in the one transaction the runner commits per repeat: a row per value
 * made every commit write pages of a second b-tree. Tuples rather than objects: the row is smaller
 * and a read decodes millions of them. JSON keeps every double exactly (JavaScript and SQLite
 * both print the shortest text that reads back the same number), and SQL can still read the
 * values (the `results` view).
 *
 * @module
 */
import type { MetricValue } from './types.js';

/** One stored value: metric, value, unit. */
export type StoredValue = [metric: string, value: number, unit: string];

/** The stored form of `values`, in metric order (the order the rows of a repeat were always read in). */
export function encodeRepeatValues(values: readonly MetricValue[]): string {
  // One value (each of an asv import's repeats) needs no sort: about a fifth of the encoding's time there.
  if (values.length === 1) return JSON.stringify([[values[0]!.metric, values[0]!.value, values[0]!.unit]]);
  const stored = values.map(({ metric, value, unit }): StoredValue => [metric, value, unit]);
  stored.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(stored);
}

/** The values of a stored repeat, in metric order. */
export function decodeRepeatValues(stored: string): StoredValue[] {
  return JSON.parse(stored) as StoredValue[];
}
