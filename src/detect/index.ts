/**
 * Regression detection: pure stages (series, compare, judge, episodes) over history rows, and
 * the `regressions` table they keep. `detectRegressions` is the whole pipeline.
 *
 * @module
 */
export { detectRegressions, judgeNight, judgeRows, type ActiveEpisode, type DetectOptions, type DetectionReport } from './run.js';
export { detectionSchema, defaultDetectionPolicy, resolveSeriesPolicy, type DetectionPolicy, type Direction, type SeriesPolicy } from './policy.js';
export { groupSeries, seriesKey, type NightPoint, type PointStatus, type Series, type SeriesIdentity } from './series.js';
export { compareNight, type Comparison, type ComparisonStats } from './compare.js';
export { judge, type NightRef, type SeriesVerdict, type VerdictKind } from './judge.js';
export { episodeFingerprint, planEpisodes, type Episode, type EpisodeChange, type EpisodeState } from './episodes.js';
export { applyEpisodeChanges, latestNightlyNight, loadEpisodes, markEpisodesAccepted, setEpisodeIssue } from './store.js';
