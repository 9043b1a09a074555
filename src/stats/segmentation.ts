/**
 * Change points of a whole series: binary segmentation of a mean shift with a noise-aware
 * penalty. Pure.
 *
 * Why binary segmentation and not E-Divisive or PELT: a nightly history holds a few hundred
 * nightly medians with a handful of level shifts; binary segmentation finds them in
 * O(n log n) with prefix sums, needs no permutation test (E-Divisive's costs thousands of
 * resamples per series), and with the noise measured robustly beforehand its penalty is a
 * plain "the shift explains more than `penalty` noise units". Outliers (one slow night) and
 * slow drift would pass as change points with raw values, so every segment is scanned on
 * values clipped to its median +/- `clip` noise units: one wild night cannot pull a mean, and a
 * real level shift survives the clipping.
 *
 * @module
 */
import { MAD_TO_SIGMA } from './noise.js';
import { sortedInBuffer } from './sort-into.js';

/**
 * Noise of one value of a series that may hold level shifts: the MAD of successive differences,
 * scaled to a standard deviation (a difference has twice a value's variance). A few steps or
 * outliers move a handful of differences and barely the median of all of them.
 */
export function differenceNoise(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const differences: number[] = [];
  for (let i = 1; i < values.length; i++) differences.push(Math.abs(values[i]! - values[i - 1]!));
  return (MAD_TO_SIGMA * medianOf(differences)) / Math.SQRT2;
}

export interface SegmentationOptions {
  /** Noise of one value (default: {@link differenceNoise} of the series). */
  noise?: number;
  /**
   * A split is kept when the clipped means of its two sides differ by so much that
   * `n1 n2 / n * (mean1 - mean2)^2 / noise^2` exceeds this (a chi-square with one degree of
   * freedom under no change; the default grows with the log of the length, as BIC's does).
   */
  penalty?: number;
  /** Fewest values in a segment. */
  minSize?: number;
  /** Values are clipped to their segment's median +/- this many noise units before scanning. */
  clip?: number;
}

export interface Segment {
  /** First index, inclusive. */
  start: number;
  /** Last index, exclusive. */
  end: number;
  /** Median of the segment's values. */
  level: number;
}

/** Change points of `values`: the indices where a new segment starts, ascending. */
export function changePoints(values: readonly number[], options: SegmentationOptions = {}): number[] {
  const n = values.length;
  const minSize = options.minSize ?? 3;
  const noise = options.noise ?? differenceNoise(values);
  const penalty = options.penalty ?? 3 * Math.log(Math.max(n, 3)) + 6;
  const clip = options.clip ?? 3;
  const found: number[] = [];
  if (!(noise > 0)) return constantSteps(values, minSize);
  const pending: [number, number][] = [[0, n]];
  while (pending.length > 0) {
    const [start, end] = pending.pop()!;
    if (end - start < 2 * minSize) continue;
    const split = bestSplit(values, start, end, minSize, noise, clip);
    if (split === undefined || split.gain <= penalty) continue;
    found.push(split.at);
    pending.push([start, split.at], [split.at, end]);
  }
  return found.sort((a, b) => a - b);
}

/** The segments between the change points of `values`, with their levels. */
export function segmentSeries(values: readonly number[], options: SegmentationOptions = {}): Segment[] {
  const bounds = [0, ...changePoints(values, options), values.length];
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const start = bounds[i]!;
    const end = bounds[i + 1]!;
    if (end > start) segments.push({ start, end, level: medianOf(values, start, end) });
  }
  return segments;
}

/** The split of `values[start, end)` that explains most of its variance, in noise units. */
function bestSplit(values: readonly number[], start: number, end: number, minSize: number, noise: number, clip: number): { at: number; gain: number } | undefined {
  const center = medianOf(values, start, end);
  const low = center - clip * noise;
  const high = center + clip * noise;
  const n = end - start;
  let total = 0;
  for (let i = start; i < end; i++) total += Math.min(high, Math.max(low, values[i]!));
  let left = 0;
  let best: { at: number; gain: number } | undefined;
  for (let i = start; i < end - minSize; i++) {
    left += Math.min(high, Math.max(low, values[i]!));
    const n1 = i - start + 1;
    if (n1 < minSize) continue;
    const n2 = n - n1;
    const difference = left / n1 - (total - left) / n2;
    const gain = ((n1 * n2) / n) * (difference / noise) ** 2;
    if (best === undefined || gain > best.gain) best = { at: i + 1, gain };
  }
  return best;
}

/** A noiseless series (every night the same bytes) changes exactly where its value does. */
function constantSteps(values: readonly number[], minSize: number): number[] {
  const steps: number[] = [];
  let last = 0;
  for (let i = 1; i < values.length; i++) {
    if (values[i] !== values[i - 1] && i - last >= minSize && values.length - i >= minSize) steps.push((last = i));
  }
  return steps;
}

/**
 * Median of `values[start..end)`, a non-empty range, sorted in a buffer kept between calls
 * (`sortedInBuffer`): detection takes such medians about a million times a night at 20,000 series.
 */
export function medianOf(values: readonly number[], start = 0, end = values.length): number {
  const n = end - start;
  const sorted = sortedInBuffer(values, start, end);
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
