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

/**
 * What became of a level change (issue 31: nothing is absorbed unjudged): `episode` when detection
 * opened one for it, `below threshold` when the step is smaller than the series' threshold (the
 * baseline moves on without an issue), `not judged` when neither (a step older than detection's
 * lookback, from before detection ran, or one only the whole history shows).
 */
export type LevelDecision = 'episode' | 'below threshold' | 'not judged';

export interface LevelChange {
  /** The new level over the one before, minus 1. */
  size: number;
  decision: LevelDecision;
  /** The episode's night (its first bad night), when it was one. */
  episodeNight?: string;
}

/**
 * The change into each segment after the first (`undefined` for the first): its size and what
 * was decided. An episode belongs to a change when its first bad night lies within `nearNights`
 * nights of the segment's first night (the change point and the episode's range both carry the
 * uncertainty of an ambiguous first night). `nights` are the nights the segments index.
 */
export function judgeLevelChanges(segments: readonly Segment[], nights: readonly string[], episodeNights: readonly string[], threshold: number, nearNights: number): (LevelChange | undefined)[] {
  const indexOf = (night: string) => {
    const at = nights.findIndex((one) => one >= night);
    return at < 0 ? nights.length : at;
  };
  const episodeIndices = episodeNights.map((night) => ({ night, at: indexOf(night) }));
  return segments.map((segment, i) => {
    const before = segments[i - 1];
    if (before === undefined || !(before.level !== 0)) return undefined;
    const size = segment.level / before.level - 1;
    const episode = episodeIndices.find(({ at }) => Math.abs(at - segment.start) <= nearNights);
    if (episode) return { size, decision: 'episode', episodeNight: episode.night };
    return { size, decision: Math.abs(size) < threshold ? 'below threshold' : 'not judged' };
  });
}
