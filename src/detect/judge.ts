/**
 * Stage 3 of detection: a comparison judged against the policy. Pure: no I/O.
 *
 * @module
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { formatChange, formatCount, formatMultiple, formatP, formatPercent } from '../format/index.js';
import { changeNoiseOf, type Comparison, type ComparisonStats } from './compare.js';
import { belowThreshold, clipNoiseUnits, episodeGateStandardErrors, heldImprovementNights, heldImprovementStart, heldLongEnough, judgedLevelStart, latestOnShiftedSide, rankBaselineNeeded, rankStepNeeded, shiftRankAlpha, shiftRanksApart, strongestShift, type Shift, type ShiftOptions } from './evidence.js';
import { suspectNights } from './suspect-range.js';
import { mannWhitneyU } from '../stats/mann-whitney.js';
import { huberLocation, huberNoiseFactor } from '../stats/m-estimate.js';
import { lagOneCorrelation, nightsWithinFloor } from '../stats/noise.js';
import { lookbackResults, resolveSeriesPolicy, type DetectionPolicy, type Direction } from './policy.js';
import { detectableOf, detectionPower, type Detectable } from './sensitivity.js';
import { logMedianOf, nightMedian, type NightPoint, type Series, type SeriesIdentity } from './series.js';
import type { MachineComparison } from './machine-class.js';
import type { NightRef } from '../history/types.js';

export type { NightRef };

export { describeDetectable, type Detectable } from './sensitivity.js';

/**
 * - `regression` / `improvement`: a change of at least the threshold that either one night proves
 *   alone (the fast path: significant by the rank test and beyond the nightly noise) or the nights
 *   since it began prove together (the persistence path, `evidence.ts`).
 * - `stable`: judged, and no change that passes either path.
 * - `failed`, `disturbed`, `missing`: tonight's point is not ok (see `PointStatus`); not judged.
 * - `insufficient-baseline`: too few good nights before tonight (or values that are not
 *   positive, which have no relative change); not judged.
 */
export type VerdictKind = 'regression' | 'improvement' | 'stable' | 'failed' | 'disturbed' | 'missing' | 'insufficient-baseline';

/** Which path found a change: one night alone, or the nights since the shift together. */
export type DetectionPath = 'fast' | 'persistent';

/** The verdict of one series on one night, with the figures that led to it. */
export interface SeriesVerdict {
  seriesKey: string;
  identity: SeriesIdentity;
  unit: string | null;
  night: string;
  kind: VerdictKind;
  /** Why, in words, e.g. "+14.8% (threshold 10%), p = 0.0005, 6.1x noise". */
  reason: string;
  direction: Direction;
  threshold: number;
  /** Tonight's run and commits. */
  latest?: NightRef;
  /** The latest ok night before the change began (before tonight when nothing changed). */
  lastGood?: NightRef;
  /** For a change: the first night clearly at the new level (set back from tonight when the change began before). */
  firstBad?: NightRef;
  /**
   * For a change: nights between `lastGood` and `firstBad` within noise of both levels, on any of
   * which it may have begun (0 when the first bad night follows the last good one).
   */
  uncertainNights?: number;
  path?: DetectionPath;
  baselineNights: number;
  /** The oldest baseline night, when there is a baseline. */
  baselineFrom?: string;
  skippedNights: number;
  /** Median of tonight's ok values (present whenever tonight is ok). */
  newMedian?: number;
  baselineMedian?: number;
  /** The change's relative size; positive is larger, whichever way is better. */
  change?: number;
  pValue?: number;
  /** Relative noise of one nightly median: the measured one, or the series' false-alarm floor when larger. */
  noise?: number;
  /** `|ln ratio|` in units of the comparison's noise (the fast path's figure). */
  noiseMultiple?: number;
  /** The persistence path's figure: the strongest recent shift in standard errors. */
  shiftZ?: number;
  /**
   * What the series catches at its settings; absent before it is known ({@link reachKnownNights}
   * nights at its level): from fewer than {@link minNoiseNights}, the figure is noise itself (three
   * nights on a loaded machine made a first real night claim wall times changing 50-fold unseen),
   * and from fewer than 17 no 3 nights rank apart from the nights before them.
   */
  detectable?: Detectable;
  /**
   * A judged series too new at its level for its reach to be known: the night at its level (from
   * its first night, or an episode's first bad night) from which it is ({@link reachKnownNights}).
   */
  reachKnownFrom?: number;
  /** For an insufficient baseline: its values, not its history, are what cannot be judged (zero or negative: no relative change). */
  notPositive?: boolean;
  /** The night's machine against its baseline's, when its run recorded one (src/detect/machine-change.ts). */
  machine?: MachineComparison;
  /**
   * The first night of an improvement the nights before tonight prove at `persistZ` but not yet
   * at `persistZ + improvementMarginZ`, where it opens (`heldImprovementStart`): a regression is
   * judged against that level too (`judgeNight` judges the series again from this night).
   */
  heldImprovementFrom?: string;
}

/**
 * The persistence path trusts a noise figure from at least this many nights: from fewer, the
 * spread of successive differences is itself too uncertain (REALISE's first weeks opened
 * episodes on noise alone with 4 nights).
 */
export const minNoiseNights = 10;

/**
 * Nights at its level from which what a series catches is known: its noise ({@link minNoiseNights})
 * and enough nights before a step for `persistNights` nights to rank apart from them
 * (`rankBaselineNeeded`: 17 for 3). Before, the persistence path cannot open a step within
 * `persistNights` nights at all, and a figure for it would promise what it cannot do.
 */
export function reachKnownNights(persistNights: number): number {
  return Math.max(minNoiseNights, rankBaselineNeeded(persistNights));
}

/**
 * Before a series has shown how far one night can wander ({@link fastPathNights} nights), one
 * night alone opens an episode only for a change of this many thresholds. A noise figure is known
 * after {@link minNoiseNights} nights, the tail of the nights' distribution only later: a bimodal
 * benchmark (30% of nights 12% slower) shows no slow night in its first 10 one time in 35, and its
 * first slow night then passed for a step (bench/detect-quality.ts, 3 repeats: 4.7 false alarms
 * per 100 series x 60 nights with 10 nights here, 2.3 with 20; every other figure the same).
 */
const youngSeriesThresholds = 2;

/**
 * Nights of history after which one night alone may open an episode for a change of the threshold
 * (or the whole lookback, where the policy's is shorter: before, a lookback of 14 kept every series
 * young for good).
 */
const fastPathNights = 20;

/**
 * Judges the comparison of `series` for its night under `policy`. `declared` is the direction
 * the suite declares for the metric (the config may override it). `noiseFloor` is the least
 * relative noise the series is judged with: what its recent false alarms showed (`false-alarms.ts`).
 *
 * The nights are judged on the lookback alone first. A series found stable is looked at again
 * with the results before the lookback (`Comparison.earlier`, `detection.earlierBaseline`) in the
 * persistence path's baseline, for a regression only: a step the first nights missed keeps the
 * level it left in its baseline instead of eroding it as the lookback moves on (+10% at CV 5% and
 * one repeat, found within 28 nights: 79% with one look, 91% with two). Improvements, and the
 * series' noise, level and promise, stay the first look's: on REALISE, improvements judged
 * against the longer baseline opened on slow moves Mozilla's engineers did not label (mean F1
 * 0.70 where it is 0.76).
 */
export function judge(series: Series, comparison: Comparison, policy: DetectionPolicy, declared?: Direction, noiseFloor = 0): SeriesVerdict {
  const recent = judgeNights(series, comparison.earlier.length === 0 ? comparison : { ...comparison, earlier: [] }, policy, declared, noiseFloor, comparison.earlier);
  if (recent.kind !== 'stable' || comparison.earlier.length === 0 || comparison.stats === undefined) return recent;
  const secondLook = { ...policy, persistZ: policy.persistZ + secondLookZ };
  // One scan decides whether the second look can find a regression; most series it spares the rest
  // of a judgement (detection of a night at 20,000 series took twice as long without it).
  const { shiftOptions, episodeLevels } = persistenceNights(comparison, comparison.stats, nightsSinceLevel(comparison), secondLook, noiseFloor, nightsAreTheirRepeats(comparison, comparison.stats, secondLook));
  const shift = strongestShift(episodeLevels, { ...shiftOptions, firstSplit: comparison.earlier.length });
  if (shift === undefined || Math.sign(shift.shift) !== -improvementSignOf(recent.direction) || Math.abs(shift.z) < secondLook.persistZ) return recent;
  const withEarlier = judgeNights(series, comparison, secondLook, declared, noiseFloor);
  return withEarlier.kind === 'regression' && withEarlier.path === 'persistent' ? withEarlier : recent;
}

/**
 * How many more standard errors the second look at a stable series' nights (`Comparison.earlier`
 * in the baseline) asks of a regression than the first: two looks at one night are two chances of
 * a false alarm, and near `persistZ` the normal tail halves every 0.16 standard errors. Measured
 * (bench/detect-quality.ts, 30 results before the lookback): with 0 the drift and bimodal series
 * opened 2 and 3 more false alarms per 1000 series x 60 nights than one look, with 0.2 one and
 * one; REALISE's F1 0.75 / 0.85 with 0, 0.76 / 0.84 (as with one look) with 0.2.
 */
const secondLookZ = 0.2;

/**
 * The persistence path's nights and scan options: the nights since the series' level began (the
 * lookback's), after the results before the lookback (`Comparison.earlier`, the second look's,
 * baseline only: splits stay inside the lookback), then tonight's level last.
 */
function persistenceNights(comparison: Comparison, stats: ComparisonStats, sinceEpisode: readonly NightPoint[], policy: DetectionPolicy, noiseFloor: number, efficient: boolean) {
  const minBaseline = Math.max(policy.minBaselineNights, policy.windowDays);
  // A young series (its whole history in the lookback, no level accepted): its first nights were
  // too few to judge a step among them (`ShiftOptions.unjudgedNights`).
  const young = comparison.baselineStart === undefined && comparison.lookback.length < lookbackResults(policy);
  const levelOf = efficient ? (values: readonly number[]) => huberLocation(values.map(Math.log), stats.repeatSpread) : (values: readonly number[]) => Math.log(nightMedian(values));
  const repeatNoise = efficient ? stats.repeatSpread * huberNoiseFactor(comparison.latest!.values.length) : stats.repeatNoise;
  const shiftOptions: ShiftOptions = {
    minBaseline, maxBaseline: Math.max(minBaseline, policy.persistBaselineNights), minNights: policy.persistNights, clip: clipNoiseUnits, noiseFloor: Math.max(repeatNoise, noiseFloor),
    noiseFloorDegrees: repeatNoise >= noiseFloor ? stats.repeatDegrees : undefined, repeatNoise, unjudgedNights: young ? minBaseline : 0,
  };
  const persistPoints = [...comparison.earlier, ...sinceEpisode];
  const episodeLevels = [...persistPoints.map((point) => levelOf(point.values)), levelOf(comparison.latest!.values)];
  return { shiftOptions, persistPoints, episodeLevels };
}

/**
 * Whether the persistence path reads each night's level as the Huber M-estimate of its repeats
 * (`huberLocation`, at the repeats' pooled spread) instead of their median: at 3 or more repeats
 * a night, where the lookback's nights before the last `persistNights` (those a young step may
 * already hold) spread no more than their repeats imply (`nightsWithinFloor`, at least
 * {@link minNoiseNights} of them). There a night's level is its repeats' noise alone, and the
 * estimate has 12% less of it than the median (0.587 of one repeat's at 3 repeats, 0.670), so a
 * step stands 14% more standard errors from the nights before it. Where the nights wander beyond
 * their repeats, the wander is most of a level's noise and the estimator gains little, and real
 * repeats there are heavy-tailed (the Dask recording's planted regression was lost when every
 * night read the M-estimate: docs/detection-design.md). The fast path keeps the median: one
 * night's level alone, skewed by a wild repeat, opened improvements on unchanged series.
 */
function nightsAreTheirRepeats(comparison: Comparison, stats: ComparisonStats, policy: DetectionPolicy): boolean {
  if (!(stats.repeatSpread > 0) || (comparison.latest?.values.length ?? 0) < 3) return false;
  const before = comparison.lookback.slice(0, -policy.persistNights).map(logMedianOf);
  if (before.length < minNoiseNights) return false;
  return nightsWithinFloor(sampleStandardDeviation(before), before.length - 1, stats.repeatNoise, stats.repeatDegrees);
}

/** The sign of a change for the better in log units: -1 where lower is better. */
function improvementSignOf(direction: Direction): number {
  return direction === 'lower' ? -1 : 1;
}

/** The nights since the series' level began: the last episode's first bad night, if inside the lookback. */
function nightsSinceLevel(comparison: Comparison): NightPoint[] {
  return comparison.lookback.filter((point) => comparison.baselineStart === undefined || point.night >= comparison.baselineStart);
}

/**
 * Judges the comparison's nights once: the lookback's, and `Comparison.earlier` as the persistence
 * path's baseline only. `memory` (the first look's: the earlier results it does not judge with) is
 * read only to stop a change the lookback alone would open, where the earlier nights at the same
 * level show that the series reached it as often before (`levelMemory`).
 */
function judgeNights(series: Series, comparison: Comparison, policy: DetectionPolicy, declared?: Direction, noiseFloor = 0, memory: readonly NightPoint[] = []): SeriesVerdict {
  const { threshold, direction } = resolveSeriesPolicy(policy, series.identity, declared);
  const latest = comparison.latest;
  const base: SeriesVerdict = {
    seriesKey: series.key,
    identity: series.identity,
    unit: series.unit,
    night: comparison.night,
    kind: 'missing',
    reason: 'the workload did not run this night',
    direction,
    threshold,
    latest: latest && nightRef(latest),
    lastGood: comparison.lastGood && nightRef(comparison.lastGood),
    baselineNights: comparison.baseline.length,
    baselineFrom: comparison.baseline[0]?.night,
    skippedNights: comparison.skipped.length,
    newMedian: comparison.newMedian,
  };
  const verdict = (kind: VerdictKind, reason: string): SeriesVerdict => ({ ...base, kind, reason });
  if (latest === undefined) return base;
  if (latest.status === 'failed') return verdict('failed', `${latest.failedRepeats} of ${latest.failedRepeats + latest.okRepeats + latest.disturbedRepeats} repeats failed`);
  if (latest.status === 'disturbed') return verdict('disturbed', `all ${latest.disturbedRepeats} repeats were disturbed`);
  if (latest.status === 'missing') return verdict('missing', 'the workload ran but did not report this metric');
  if (latest.values.length < policy.minRepeats && latest.disturbedRepeats > 0) {
    // The cluster changed during most of the night: what survived is not the night's usual state.
    return verdict('disturbed', `${formatCount(latest.values.length, 'ok repeat')}, fewer than the ${policy.minRepeats} needed (${latest.disturbedRepeats} disturbed)`);
  }
  // The persistence path's nights: the lookback since the last level shift, then tonight.
  const sinceEpisode = nightsSinceLevel(comparison);
  if (comparison.baseline.length < policy.minBaselineNights || sinceEpisode.length < policy.minBaselineNights) {
    return verdict('insufficient-baseline', `${formatCount(comparison.baseline.length, 'good night')} among the last ${policy.windowDays} results${comparison.baselineStart ? ` since the level changed on ${comparison.baselineStart}` : ''}, fewer than the ${policy.minBaselineNights} needed`);
  }
  const stats = comparison.stats;
  if (stats === undefined) {
    const allZero = latest.values.every((value) => value === 0) && comparison.lookback.every((point) => point.values.every((value) => value === 0));
    return { ...verdict('insufficient-baseline', allZero ? 'zero on every night: no relative change to judge' : 'values that are not positive have no relative change'), notPositive: true };
  }

  const repeats = latest.values.length;
  const fastAllowed = repeats >= policy.minRepeats;
  const change = stats.ratio - 1;
  const noise = Math.max(stats.noise, noiseFloor);
  const efficient = nightsAreTheirRepeats(comparison, stats, policy);
  const { shiftOptions, persistPoints, episodeLevels } = persistenceNights(comparison, stats, sinceEpisode, policy, noiseFloor, efficient);
  // The fast path judges tonight's median: its spreads are the nights' medians', whatever level the persistence path reads.
  const medianNights = efficient ? persistenceNights(comparison, stats, sinceEpisode, policy, noiseFloor, false) : { shiftOptions, episodeLevels };
  // The nights since the level judged last: the last episode's, or a shift since then known to be below the threshold.
  const earlier = comparison.earlier;
  const { from: judgedFrom, shift: judgedLevelShift } = judgedLevelStart(episodeLevels, shiftOptions, policy.persistZ, threshold);
  const persistSince = persistPoints.slice(judgedFrom);
  const persistLevels = episodeLevels.slice(judgedFrom);
  // Where the lookback's nights begin among them (the results before the lookback are baseline only).
  const lookbackFrom = Math.max(0, earlier.length - judgedFrom);
  const since = persistSince.slice(lookbackFrom);
  const levels = persistLevels.slice(lookbackFrom);
  const medianLevels = medianNights.episodeLevels.slice(judgedFrom + lookbackFrom);
  // The spread of the nights themselves since the last judged level: a bimodal benchmark's
  // successive differences are calm within each run of one mode, and its mode flips would pass
  // for steps against them (193 false alarms per 100 series x 60 nights at 3 repeats).
  const lookbackSpread = since.length >= minNoiseNights ? sampleStandardDeviation(medianLevels.slice(0, -1)) : 0;
  const multipleAt = (spread: number) => {
    const changeNoise = changeNoiseOf(Math.max(noise, spread), comparison.baseline.length);
    return changeNoise > 0 ? Math.abs(Math.log(stats.ratio)) / changeNoise : Number.POSITIVE_INFINITY;
  };
  const noiseKnown = comparison.lookback.length >= minNoiseNights;
  const youngUntil = Math.min(fastPathNights, lookbackResults(policy));
  const tailKnown = comparison.lookback.length >= youngUntil;
  const large = Math.abs(change) >= threshold * (tailKnown ? 1 : youngSeriesThresholds);
  const significant = stats.pValue <= policy.alpha;
  // The earlier results at the same level widen the spread too, where they could stop one night
  // from opening (read only then: a scan per series and night is not free at 20,000 series). A
  // bimodal benchmark whose slow mode a month of nights happened to show once or twice shows it
  // as often as ever in the month before.
  const lookbackNight = fastAllowed && large && significant && multipleAt(lookbackSpread) >= policy.noiseMultiple;
  const earlierAtLevel = lookbackNight && judgedFrom === 0 ? levelMemory(memory, medianNights.episodeLevels, medianNights.shiftOptions, policy.persistZ, threshold, medianLevels.slice(0, -1)) : [];
  const nightsSpread = earlierAtLevel.length > 0 ? Math.max(lookbackSpread, sampleStandardDeviation([...earlierAtLevel, ...medianLevels.slice(0, -1)])) : lookbackSpread;
  const baselineNoise = Math.max(noise, nightsSpread);
  const multiple = multipleAt(nightsSpread);
  const beyondNoise = multiple >= policy.noiseMultiple;
  // A level the series already showed since its current level began is no news from one night
  // alone: a bimodal benchmark's slow mode passed for a step against the calm of its fast nights,
  // and each false episode re-baselined the series for the next one (bench/detect-quality.ts:
  // 36.6 false alarms per 100 series x 60 nights at 3 repeats, 24.8 with this rule, the power grid
  // unchanged but for one series in 100 of one cell). Such a night is left to the persistence path.
  const precedent = fastAllowed && large ? reachedBefore(comparison.levelNights, Math.log(stats.newMedian), Math.sign(change), noise) : undefined;
  const fast = fastAllowed && large && significant && beyondNoise && precedent === undefined;

  // Every night since the last judged level is tested together against it (`evidence.ts`); the
  // noise floor is what the repeats imply, raised by a maintainer's false alarms.
  const scanOptions = { ...shiftOptions, firstSplit: lookbackFrom };
  // The scan that ended the judged level's search is this one, unless nights before the lookback must not be split at.
  const shift = scanOptions.firstSplit === 0 ? judgedLevelShift : strongestShift(persistLevels, scanOptions);
  const shiftProved = shift !== undefined && Math.abs(shift.z) >= policy.persistZ;
  const nightNoise = Math.max(shift?.noise ?? noise, noiseFloor);
  const shiftedLevel = shift && shift.baselineLevel + shift.shift;
  // A shift the series already came back from is not opened: tonight must not be clearly at the old level.
  const tonightShifted = shift !== undefined && latestOnShiftedSide(persistLevels, shift);
  // A step of the threshold measures below it about half the time: the shift counts as large
  // unless it measures clearly below it (`episodeGateStandardErrors`), so a 10% step is found
  // within weeks instead of on a coin flip (and a 9% one sometimes is too).
  // An improvement opens at `improvementMarginZ` beyond persistZ, or at persistZ once it has held
  // there for `heldImprovementNights`; until then its level is held (`heldImprovementFrom`).
  const improvementSign = improvementSignOf(direction);
  const improvementHeld = shiftProved && Math.sign(shift.shift) === improvementSign && Math.abs(shift.z) < policy.persistZ + policy.improvementMarginZ && !heldLongEnough(persistLevels, scanOptions, policy, threshold, improvementSign);
  const significantShift = noiseKnown && shiftProved && !improvementHeld && !belowThreshold(shift, threshold, episodeGateStandardErrors) && tonightShifted;
  // Tested only where it can decide: a rank test per series and night is not free at 20,000 series.
  const ranks = significantShift ? shiftRanksApart(persistLevels, shift) : undefined;
  const persistent = significantShift && ranks!.apart;

  // Each path's sensitivity at the noise unit it judges with: the fast path's, the spread of the
  // nights since the last judged level (tonight left out); the persistence path's, the noise within
  // the two sides of its split, or that spread where it is smaller. Either alone can reach across a
  // step: the spread when the nights hold one (on the night a persistence episode opened, its issue
  // said a +146% slowdown was seen only from 533% on), the split's sides when tonight is the step.
  // But the split is tonight's strongest, its sides the calmest of many: where the nights alone
  // give the noise (one repeat a night, no floor under it) and hold no shift of persistZ, they were
  // 5% below the nights' noise on average, and 3-night promises from them were caught in 75-77% of
  // series where 80% is promised (bench/sensitivity-calibration.ts); there the spread of the nights
  // themselves is the noise a step after them will be judged with. Where the repeats' floor is
  // under it, the floor hides that bias (the promises were caught in 80-81%). Only the promise
  // reads this noise, not detection. Nights at its level that many (at least minNoiseNights) imply
  // a known noise too.
  const reachNights = reachKnownNights(policy.persistNights);
  const nightsAlone = stats.repeatNoise === 0 && !shiftProved;
  const persistNoise = nightsAlone ? Math.max(nightsSpread, noiseFloor) : Math.min(nightNoise, baselineNoise);
  // The nights' lag-1 correlation the persistence path will allow for, measured the same way: on
  // the nights themselves where they hold no shift of persistZ (the strongest split's sides are the
  // least correlated of many, as they are the calmest), else within the two sides of that shift.
  const detectable = since.length >= reachNights
    ? detectableOf(
        {
          repeats, noise: baselineNoise, persistNoise, repeatSpread: stats.repeatSpread, baselineNights: comparison.baseline.length, sinceNights: since.length, threshold,
          firstNightThreshold: threshold * (tailKnown ? 1 : youngSeriesThresholds),
          correlation: shiftProved ? shift.correlation : lagOneCorrelation(levels.slice(0, -1)),
          rankStep: rankStepNeeded((shiftProved ? aboutTheirSides(persistLevels, shift) : levels).slice(-shiftOptions.maxBaseline), policy.persistNights, detectionPower, -improvementSign),
        },
        policy,
      )
    : undefined;
  const held = noiseKnown && policy.improvementMarginZ > 0 ? heldImprovementStart(persistLevels.slice(0, -1), scanOptions, policy, threshold, improvementSign) : undefined;
  const judged: SeriesVerdict = {
    ...base, baselineMedian: stats.baselineMedian, change, pValue: stats.pValue, noise, noiseMultiple: multiple, shiftZ: shift?.z, ...(detectable ? { detectable } : { reachKnownFrom: reachNights }),
    ...(held === undefined ? {} : { heldImprovementFrom: persistSince[held]!.night }),
  };
  const floored = noise > stats.noise ? ` (${formatPercent(noise)} after a false alarm)` : '';
  const fastFigures = `${formatChange(change)} (threshold ${formatPercent(threshold)}), p = ${formatP(stats.pValue)}, ${formatMultiple(multiple)}x noise${floored}`;
  /** The range of the shift from `oldLevel` to `newLevel` ending tonight, as nights (`suspect-range.ts`). */
  const rangeOf = (oldLevel: number, newLevel: number, levelNoise: number, maxNights: number) => {
    const range = suspectNights(persistLevels, oldLevel, newLevel, levelNoise, maxNights);
    const pointAt = (i: number) => (i < persistSince.length ? persistSince[i]! : latest);
    const before = [...earlier, ...comparison.lookback].filter((point) => point.night < persistSince[0]!.night).at(-1) ?? persistSince[0]!;
    return {
      firstBad: nightRef(pointAt(range.firstBad)),
      lastGood: range.lastGood >= 0 ? nightRef(pointAt(range.lastGood)) : nightRef(before),
      uncertainNights: range.uncertainNights,
    };
  };
  if (persistent) {
    const shiftChange = Math.expm1(shift.shift);
    const worse = direction === 'lower' ? shiftChange > 0 : shiftChange < 0;
    const range = rangeOf(shift.baselineLevel, shiftedLevel!, shift.noise, persistLevels.length);
    return {
      ...judged,
      ...range,
      kind: worse ? 'regression' : 'improvement',
      path: 'persistent',
      // The p of the test that proved it: its nights ranked against its baseline's.
      pValue: ranks!.p,
      change: shiftChange,
      baselineMedian: Math.exp(shift.baselineLevel),
      reason: `${formatChange(shiftChange)} over the ${shift.nights} nights since ${persistSince[shift.start]?.night ?? comparison.night} (threshold ${formatPercent(threshold)}), ${formatMultiple(Math.abs(shift.z))} standard errors`,
    };
  }
  if (fast) {
    const worse = direction === 'lower' ? change > 0 : change < 0;
    // Tonight proves the change alone, but it may have begun a night or two before, too small
    // then to prove: the range reaches back over the nights not surely at the old level.
    const range = rangeOf(Math.log(stats.baselineMedian), Math.log(stats.newMedian), nightNoise, policy.windowDays);
    return { ...judged, ...range, kind: worse ? 'regression' : 'improvement', path: 'fast', reason: fastFigures };
  }
  const missed = fastAllowed
    ? [
        large ? undefined : tailKnown || Math.abs(change) < threshold ? 'below threshold' : `below ${youngSeriesThresholds}x the threshold while the series is young (${comparison.lookback.length} of ${youngUntil} nights)`,
        significant ? undefined : `not significant at alpha ${policy.alpha}`,
        beyondNoise ? undefined : `within ${policy.noiseMultiple}x noise`,
        precedent === undefined ? undefined : `the series was at this level on ${precedent.night}`,
      ]
    : [`${formatCount(repeats, 'repeat')}: one night alone is not enough, only the persistence path judges`];
  const notApart = ranks && !ranks.apart
    ? `, but its nights do not rank apart from the baseline's (p = ${formatP(ranks.p)}, ${shiftRankAlpha} needed)`
    : '';
  const heldBack = improvementHeld ? `, an improvement opens at ${formatMultiple(policy.persistZ + policy.improvementMarginZ)} or after ${heldImprovementNights} nights at ${formatMultiple(policy.persistZ)}` : '';
  const persistence = shift === undefined ? 'no recent shift' : `strongest recent shift ${formatChange(Math.expm1(shift.shift))} at ${formatMultiple(Math.abs(shift.z))} standard errors${notApart}${heldBack}`;
  return { ...judged, kind: 'stable', reason: `${fastFigures}: ${missed.filter((why) => why !== undefined).join(', ')}; ${persistence}` };
}

/**
 * The log levels of the `memory` nights (earlier results) since the level judged last over them
 * and the lookback's `episodeLevels` (`judgedLevelStart`), when they do not rank apart from
 * `recent` (log levels of nights at that level inside the lookback) in a two-sided rank test at
 * {@link memoryRankAlpha}; else none.
 */
function levelMemory(memory: readonly NightPoint[], episodeLevels: readonly number[], options: ShiftOptions, persistZ: number, threshold: number, recent: readonly number[]): number[] {
  if (memory.length === 0 || recent.length === 0) return [];
  const levels = [...memory.map(logMedianOf), ...episodeLevels];
  const { from } = judgedLevelStart(levels, options, persistZ, threshold);
  const atLevel = levels.slice(from, memory.length);
  return atLevel.length > 0 && mannWhitneyU(recent, atLevel).p > memoryRankAlpha ? atLevel : [];
}

/**
 * Earlier results count as the same level's nights only where the lookback's nights at that level
 * do not rank apart from them at this two-sided level. A real series can change its spread without
 * a shift the path judges: REALISE's 4653862 flipped between two modes 35% apart for months, then
 * stayed in the lower one for 21 nights before its labelled regression at row 333; against the
 * months of both modes that regression did not rank apart, and was lost (F1 0.76 -> 0.75, when the
 * persistence path read these nights too); the nights' spread of both modes would hide it as well.
 */
const memoryRankAlpha = 0.001;

/**
 * The nights of `shift`'s two sides (its baseline's and its own, the last of `levels`), each about
 * its side's mean: how far a night strays from its level, where the nights hold a step. The next
 * step will be judged against nights like these, not against the spread across this one.
 */
function aboutTheirSides(levels: readonly number[], shift: Shift): number[] {
  const about = (side: readonly number[]) => {
    const mean = side.reduce((sum, level) => sum + level, 0) / side.length;
    return side.map((level) => level - mean);
  };
  return [...about(levels.slice(shift.start - shift.baselineNights, shift.start)), ...about(levels.slice(shift.start))];
}

/**
 * The latest of `nights` whose median reached `level` (log) to within {@link precedentNoiseUnits}
 * `noise`, in the direction `sign` of the change (+1: at or above it, -1: at or below it).
 */
function reachedBefore(nights: readonly NightPoint[], level: number, sign: number, noise: number): NightPoint | undefined {
  return nights.findLast((point) => (logMedianOf(point) - level) * sign >= -precedentNoiseUnits * noise);
}

/**
 * A night reached tonight's level when it came within one standard deviation of the difference
 * of two nights' medians (sqrt(2) noise): two nights at one level differ by that much as often as
 * not. With one noise, a bimodal benchmark's slow night 2.4% above its earlier slow one passed for
 * a step (bench/detect-quality.ts, 3 repeats: 1.2 false alarms per 100 series x 60 nights, 1.0
 * with sqrt(2) and with 1.5, for a point of first-night finds in three cells of the 3-repeat grid;
 * REALISE's figures, the Dask fixtures' and every other false alarm the same; with 2 noise, 1.1,
 * and first-night finds 1-3 points lower in seven cells).
 */
const precedentNoiseUnits = Math.SQRT2;

/** The night, run and commits of a point, without its values. */
export function nightRef(point: NightPoint): NightRef {
  const ref = { night: point.night, runId: point.runId, commits: point.commits };
  return point.machineClass === undefined ? ref : { ...ref, machineClass: point.machineClass };
}
