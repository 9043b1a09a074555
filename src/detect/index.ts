/**
 * Regression detection: pure stages (series, compare, judge, episodes) over history rows, and
 * the episodes they keep (stored through HistoryStore). `detectRegressions` is the whole pipeline.
 *
 * @module
 */
export { assessNight, detectRegressions, judgedNight, judgeNight, judgeRows, planNight, unjudgedCounts, type ActiveEpisode, type DetectOptions, type DetectionReport, type JudgedNight, type UnjudgedCounts } from './run.js';
export { detectionSchema, defaultDetectionPolicy, resolveSeriesPolicy, type DetectionPolicy, type Direction, type SeriesPolicy } from './policy.js';
export { groupSeries, seriesKey, type NightPoint, type PointStatus, type Series, type SeriesIdentity } from './series.js';
export { compareNight, type Comparison, type ComparisonStats } from './compare.js';
export { judgeLevelChanges, levelSegmentation, nightlyLevels, type LevelChange, type LevelDecision } from './levels.js';
export { describeDetectable, judge, minNoiseNights, reachKnownNights, type Detectable, type NightRef, type SeriesVerdict, type VerdictKind } from './judge.js';
export { describeSensitivity, detectableWithin, minimumDetectable, repeatsNeeded, summarizeSensitivity, type SensitivityBasis, type SensitivitySummary } from './sensitivity.js';
export { falseAlarmMemoryDays, falseAlarmNoiseFloors, type FalseAlarmStep } from './false-alarms.js';
export { episodeFingerprint, planEpisodes, type Episode, type EpisodeChange, type EpisodeKind, type EpisodeState } from './episodes.js';
