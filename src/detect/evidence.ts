/**
 * The persistence path of detection: a shift that no single night proves, proved by the nights
 * since it began. Pure: log nightly medians in, the strongest recent shift out.
 *
 * Why a change-point test over the recent nights (and not a CUSUM or "k nights in a row beyond
 * the band"): it names where the shift began (the first bad night is set back to it, and the
 * suspect range follows), it needs no state between nights (each night re-reads the history, so
 * a rerun or a late shard changes nothing), and it weighs every night since the shift, where a
 * run rule breaks on one lucky night. Scored on the same data (bench/detect-quality.ts), it
 * catches the planted Dask step a night earlier than a 3-in-a-row rule at the same false-alarm
 * rate.
 *
 * Each night counts as its standardised distance from the baseline level, clipped to
 * `clip` noise units, so one outlying night moves the mean of k nights by at most clip / k.
 *
 * @module
 */

/**
 * Each night counts at most this many noise units from a level: in the persistence path's shift
 * test and in the whole-history segmentation (`levels.ts`), so both shrug off the same outliers.
 */
export const clipNoiseUnits = 3;

export interface ShiftOptions {
  /** Fewest nights before the shift that form its baseline. */
  minBaseline: number;
  /** Fewest nights since the shift (tonight included). */
  minNights: number;
  /**
   * Most nights since the shift: a shift that older is the baseline's business. Longer scans
   * find "shifts" in every long run of one mode of a bimodal benchmark (REALISE's noisiest
   * series opened an episode a month with no limit).
   */
  maxNights: number;
  /** Each night's distance from the baseline level is clipped to this many noise units. */
  clip: number;
}

/** The strongest shift ending tonight. */
export interface Shift {
  /** Index (into the given levels) of the first shifted night. */
  start: number;
  /** Nights from `start` to tonight. */
  nights: number;
  /** Clipped mean distance of those nights from the baseline, over its standard error. */
  z: number;
  /** Median of the shifted nights minus the baseline's median (log units). */
  shift: number;
  /** Median of the baseline nights (log units). */
  baselineLevel: number;
  baselineNights: number;
}

/**
 * Tries every split of `levels` (log nightly medians, tonight last) into a baseline of at
 * least `minBaseline` nights and a recent part of at least `minNights`, and returns the split
 * whose recent part stands furthest from the baseline's median, in units of its standard error:
 * `noise * sqrt(1 / k + pi / 2b)` (the mean of k nights, the median of b). O(n^2) in the nights,
 * which the lookback keeps to a few dozen.
 */
export function strongestShift(levels: readonly number[], noise: number, options: ShiftOptions): Shift | undefined {
  const n = levels.length;
  if (!(noise > 0)) return undefined;
  const sortedBaseline: number[] = [];
  let best: Shift | undefined;
  for (let start = 0; start < n; start++) {
    const b = start;
    if (b >= options.minBaseline && n - start >= options.minNights && n - start <= options.maxNights) {
      const level = medianOfSorted(sortedBaseline);
      let sum = 0;
      for (let i = start; i < n; i++) sum += Math.max(-options.clip, Math.min(options.clip, (levels[i]! - level) / noise));
      const k = n - start;
      const z = sum / k / Math.sqrt(1 / k + Math.PI / (2 * b));
      if (best === undefined || Math.abs(z) > Math.abs(best.z)) {
        best = { start, nights: k, z, shift: medianOfSorted([...levels.slice(start)].sort((x, y) => x - y)) - level, baselineLevel: level, baselineNights: b };
      }
    }
    insertSorted(sortedBaseline, levels[start]!);
  }
  return best;
}

function insertSorted(sorted: number[], value: number): void {
  let i = sorted.length;
  sorted.push(value);
  while (i > 0 && sorted[i - 1]! > value) {
    sorted[i] = sorted[i - 1]!;
    i--;
  }
  sorted[i] = value;
}

function medianOfSorted(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
