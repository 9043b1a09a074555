/**
 * The levels of a series over its whole stored history: its nightly medians cut where the level
 * shifts (binary segmentation, `src/stats/segmentation.ts`). The settings come from the detection
 * policy here and nowhere else, so a level the pages draw is as long and as robust to outlier
 * nights as a shift the persistence path would call. Pure.
 *
 * @module
 */
import { segmentSeries, type Segment, type SegmentationOptions } from '../stats/segmentation.js';
import { clipNoiseUnits } from './evidence.js';
import type { DetectionPolicy } from './policy.js';

/**
 * Segmentation with detection's settings: no level shorter than the nights the persistence path
 * needs to call a shift, and values clipped as its shift test clips them.
 */
export function levelSegmentation(policy: Pick<DetectionPolicy, 'persistNights'>): SegmentationOptions {
  return { minSize: policy.persistNights, clip: clipNoiseUnits };
}

/**
 * The levels of nightly medians (`null` where a night has none), as segments whose `start` and
 * `end` index the given nights (a night without a value inside a segment belongs to it). Positive
 * series are segmented in logs, as detection judges them (noise is relative: a 10% wobble of a
 * 100 s benchmark is the same noise as of a 10 s one); a series with zeros (no disk time at all)
 * is segmented as it is, so one that is zero every night is one level at 0.
 */
export function nightlyLevels(medians: readonly (number | null)[], options: SegmentationOptions): Segment[] {
  const nights: number[] = [];
  const values: number[] = [];
  medians.forEach((value, night) => {
    if (value === null) return;
    nights.push(night);
    values.push(value);
  });
  const relative = values.every((value) => value > 0);
  return segmentSeries(relative ? values.map(Math.log) : values, options).map((segment) => ({
    start: nights[segment.start]!,
    end: nights[segment.end - 1]! + 1,
    level: relative ? Math.exp(segment.level) : segment.level,
  }));
}
