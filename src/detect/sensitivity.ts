/**
 * Sensitivity: the smallest change a series catches within a number of nights at its measured
 * noise and repeats (its minimum detectable effect), and the repeats it would need to catch a
 * target. The one home of the formulas: the verdict's `detectable`, the pages, the summary,
 * issues and `nightbench tune` all read them from here. Pure: numbers in, numbers out.
 *
 * The figures are the change that passes a detection gate in {@link detectionPower} of the
 * nights it happens (the usual definition of a minimum detectable effect): the gate plus
 * {@link powerZ} standard errors, where
 * - on its first night (the fast path) the gate is `noiseMultiple` times the noise of the change,
 *   `noise * sqrt(1 + 1/b)` for a baseline of b nights, and only with `minRepeats` repeats;
 * - within k nights (the persistence path, k at least `persistNights`) it is `persistZ` standard
 *   errors of the mean of k nights against the mean of the s nights since the last judged level,
 *   `persistNoise * sqrt(1/k + 1/s)`.
 * Both are floored by the series' threshold: detection reports nothing smaller. The detector's
 * other conditions (the rank test, tonight beyond the noise, the clipped mean) cost it some of
 * that power: test/detect/sensitivity.test.ts measures how much.
 *
 * @module
 */
import { formatPercent } from '../format/index.js';
import { changeNoiseOf, medianNoiseFactor } from './compare.js';
import type { DetectionPolicy } from './policy.js';
import { zAsT } from '../stats/student-t.js';

/** What a series' sensitivity is computed from: the figures of its latest judged night. */
export interface SensitivityBasis {
  /** Ok repeats a night. */
  repeats: number;
  /** Relative noise of a nightly median at `repeats` (the fast path's unit). */
  noise: number;
  /** The persistence path's noise unit at `repeats`: the noise within the two sides of its split. */
  persistNoise: number;
  /** Standard deviation of one repeat's log value within a night (0 when unknown, e.g. one repeat a night). */
  repeatSpread: number;
  /** Nights of the fast path's baseline. */
  baselineNights: number;
  /** Nights of the persistence path's baseline (since the last level shift). */
  sinceNights: number;
  /** The series' threshold: detection reports no smaller change. */
  threshold: number;
}

/** The smallest changes a series catches at its settings (relative, e.g. 0.18 for 18%), floored by its threshold. */
export interface Detectable {
  /** Ok repeats tonight. */
  repeats: number;
  /** Relative noise of a nightly median (raised to the series' false-alarm floor, if any): the fast path's unit. */
  noise: number;
  /** The same as the persistence path judges it: the noise within the two sides of its split. */
  persistNoise: number;
  /** Caught on its first night by the fast path; absent when the night has too few repeats for it. */
  firstNight?: number;
  /** Caught within `nights` nights by the persistence path. */
  persistent: number;
  nights: number;
  /** Repeats a night that would catch the threshold within `nights` nights, when these do not; absent when they do or when none would. */
  repeatsForThreshold?: number;
  /** True when no number of repeats catches the threshold within `nights` nights: the night-to-night noise alone is too large. */
  thresholdOutOfReach?: boolean;
  basis: SensitivityBasis;
}

/** The gates' parameters the figures depend on. */
export type SensitivityPolicy = Pick<DetectionPolicy, 'minRepeats' | 'noiseMultiple' | 'persistZ' | 'persistNights'>;

/** The share of changes of the minimum detectable size that pass the gate. */
export const detectionPower = 0.8;

/** Standard errors beyond the gate for {@link detectionPower}: the standard normal's 80% quantile. */
const powerZ = 0.8416212335729143;

/** More repeats than this a night are not a plan: `repeatsNeeded` says "none" beyond it. */
export const maxTunedRepeats = 100;

/**
 * The noise units at `repeats` a night: the part of the measured noise that repeats average away
 * (the repeat spread through the median of the repeats) is rescaled, the night-to-night rest stays.
 */
export function noiseAt(basis: SensitivityBasis, repeats: number): { noise: number; persistNoise: number } {
  const measured = (basis.repeatSpread * medianNoiseFactor(basis.repeats)) ** 2;
  const wanted = (basis.repeatSpread * medianNoiseFactor(repeats)) ** 2;
  const rescale = (unit: number) => Math.sqrt(Math.max(0, unit ** 2 - measured) + wanted);
  return { noise: rescale(basis.noise), persistNoise: rescale(basis.persistNoise) };
}

/**
 * The smallest change caught within `nights` nights at `repeats` a night, not floored by the
 * threshold (Infinity when no path can catch anything that fast, e.g. one night at one repeat).
 */
export function minimumDetectable(basis: SensitivityBasis, policy: SensitivityPolicy, nights: number, repeats = basis.repeats): number {
  const { noise, persistNoise } = noiseAt(basis, repeats);
  const first = repeats >= policy.minRepeats ? firstNightDetectable(noise, basis.baselineNights, policy) : Number.POSITIVE_INFINITY;
  const persistent = nights >= policy.persistNights ? persistentDetectable(basis, repeats, persistNoise, nights, policy) : Number.POSITIVE_INFINITY;
  return Math.min(first, persistent);
}

/** Fewest repeats a night (up to {@link maxTunedRepeats}) that catch `target` within `nights` nights; undefined when none does. */
export function repeatsNeeded(basis: SensitivityBasis, policy: SensitivityPolicy, target: number, nights: number): number | undefined {
  for (let repeats = 1; repeats <= maxTunedRepeats; repeats++) {
    if (minimumDetectable(basis, policy, nights, repeats) <= target) return repeats;
  }
  return undefined;
}

/** The verdict's `detectable`: what the series catches at its settings, and what it would need for its threshold. */
export function detectableOf(basis: SensitivityBasis, policy: SensitivityPolicy): Detectable {
  const { noise, persistNoise } = noiseAt(basis, basis.repeats);
  const nights = policy.persistNights;
  const detectable: Detectable = {
    repeats: basis.repeats,
    noise,
    persistNoise,
    firstNight: basis.repeats >= policy.minRepeats ? Math.max(basis.threshold, firstNightDetectable(noise, basis.baselineNights, policy)) : undefined,
    persistent: Math.max(basis.threshold, persistentDetectable(basis, basis.repeats, persistNoise, nights, policy)),
    nights,
    basis,
  };
  if (minimumDetectable(basis, policy, nights) <= basis.threshold) return detectable;
  const needed = repeatsNeeded(basis, policy, basis.threshold, nights);
  return needed === undefined ? { ...detectable, thresholdOutOfReach: true } : { ...detectable, repeatsForThreshold: needed };
}

/** The smallest change caught within `nights` nights (floored by the threshold), the fast path's first night counting too. */
export function detectableWithin(detectable: Detectable, nights: number): number | undefined {
  const persistent = nights >= detectable.nights ? detectable.persistent : undefined;
  const candidates = [detectable.firstNight, persistent].filter((x): x is number => x !== undefined);
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}

/** A series' sensitivity as pages and summaries show it: rounded up to whole percents (what is promised is caught). */
export interface SensitivitySummary {
  /** The smallest change caught on its first night; absent when one night alone cannot catch any (too few repeats). */
  oneNight?: number;
  /** The smallest change caught within `nights` nights. */
  withinNights: number;
  nights: number;
  repeats: number;
  threshold: number;
  /** Repeats a night that would catch the threshold within `nights` nights, when these do not. */
  repeatsForThreshold?: number;
  /** No number of repeats catches the threshold within `nights` nights. */
  thresholdOutOfReach?: boolean;
  /** "this test sees a 12% change in 3 nights (...)", with the repeats it would need for its threshold. */
  text: string;
}

export function summarizeSensitivity(detectable: Detectable): SensitivitySummary {
  return {
    ...(detectable.firstNight === undefined ? {} : { oneNight: roundUp(detectable.firstNight) }),
    withinNights: roundUp(detectableWithin(detectable, detectable.nights)!),
    nights: detectable.nights,
    repeats: detectable.repeats,
    threshold: detectable.basis.threshold,
    ...(detectable.repeatsForThreshold === undefined ? {} : { repeatsForThreshold: detectable.repeatsForThreshold }),
    ...(detectable.thresholdOutOfReach ? { thresholdOutOfReach: true } : {}),
    text: describeSensitivity(detectable),
  };
}

/** "this test sees a 12% change in 3 nights (45% on its first night)", plus what it needs when it cannot see its threshold. */
export function describeSensitivity(detectable: Detectable): string {
  const within = detectableWithin(detectable, detectable.nights)!;
  const first = detectable.firstNight === undefined ? ', none on its first night alone' : ` (${formatPercent(roundUp(detectable.firstNight))} on its first night)`;
  return `this test sees a ${formatPercent(roundUp(within))} change in ${detectable.nights} nights${first}${thresholdNeed(detectable)}`;
}

/**
 * "3 repeats, 11% nightly noise: changes of 18% or more within 3 nights (45% on their first
 * night)"; the noise is the persistence path's, whose figure the sentence gives first.
 */
export function describeDetectable(detectable: Detectable): string {
  const first = detectable.firstNight === undefined ? ', none on their first night alone' : ` (${formatPercent(roundUp(detectable.firstNight))} on their first night)`;
  return `${detectable.repeats} repeat${detectable.repeats === 1 ? '' : 's'}, ${formatPercent(roundUp(detectable.persistNoise))} nightly noise: changes of ${formatPercent(roundUp(detectable.persistent))} or more within ${detectable.nights} nights${first}`;
}

/** "; to see 10% it needs 7 repeats a night" or why no number of repeats will do; empty when it sees its threshold. */
function thresholdNeed(detectable: Detectable): string {
  const threshold = formatPercent(detectable.basis.threshold);
  if (detectable.repeatsForThreshold !== undefined) return `; to see ${threshold} in ${detectable.nights} nights it needs ${detectable.repeatsForThreshold} repeats a night`;
  if (!detectable.thresholdOutOfReach) return '';
  const why = detectable.basis.repeatSpread > 0 ? 'its night-to-night noise alone is too large' : 'with one repeat a night its noise cannot be told apart from the night-to-night part';
  return `; no number of repeats makes it see ${threshold} in ${detectable.nights} nights (${why})`;
}

function firstNightDetectable(noise: number, baselineNights: number, policy: SensitivityPolicy): number {
  return Math.expm1((policy.noiseMultiple + powerZ) * changeNoiseOf(noise, baselineNights));
}

/**
 * The change the persistence path catches in {@link detectionPower} of the nights it happens. The
 * path compares the mean of the nights after a split with the mean of those before, and reads
 * its t, whose noise it estimated, on the normal scale (`tAsZ` in `evidence.ts`): the gate is a t
 * of `zAsT(persistZ, degrees)`, 5.1 at 31 nights where persistZ is 4.3, and an estimated noise
 * spreads the t wider than a z (the noncentral t's spread, sqrt(1 + t^2 / 2 degrees)). Taking the
 * gate as a z promised changes that detection caught within 3 nights in only 42-67% of synthetic
 * series (CV 3-10%, 1 to 5 repeats), not 80%.
 */
function persistentDetectable(basis: SensitivityBasis, repeats: number, persistNoise: number, nights: number, policy: SensitivityPolicy): number {
  const { sinceNights } = basis;
  const degrees = persistDegrees(basis, repeats, persistNoise, nights);
  const gate = zAsT(policy.persistZ, degrees);
  const standardErrors = gate + powerZ * Math.sqrt(1 + (gate * gate) / (2 * degrees));
  // The path widens its standard error by (1 + r) / (1 - r) for the nights' lag-1 correlation r,
  // estimated and taken at least 0: on independent nights about 1 + 0.8 / sqrt(n) in variance on
  // average, r's estimate from n nights spreading 1 / sqrt(n) around 0 and its positive half counted.
  const correlationAllowance = Math.sqrt(1 + 0.8 / Math.sqrt(sinceNights + nights));
  return Math.expm1(standardErrors * correlationAllowance * persistNoise * Math.sqrt(1 / nights + 1 / sinceNights));
}

/**
 * The degrees of freedom behind the persistence path's noise `persistNoise` at `repeats` a night
 * (`noiseAt`'s): the nights' own, or, where the repeats' floor is the noise (the path reads its t
 * with these too), the repeats', one per repeat beyond the first of each night.
 */
function persistDegrees(basis: SensitivityBasis, repeats: number, persistNoise: number, nights: number): number {
  const nightsDegrees = Math.max(1, basis.sinceNights + nights - 2);
  const floor = basis.repeatSpread * medianNoiseFactor(repeats);
  const floorIsNoise = repeats > 1 && floor > 0 && persistNoise <= floor * 1.01;
  return floorIsNoise ? Math.max(nightsDegrees, (basis.sinceNights + nights) * (repeats - 1)) : nightsDegrees;
}

/** Rounded up to a whole percent, so that what is promised is caught. */
export function roundUp(fraction: number): number {
  return Math.ceil(fraction * 100 - 1e-9) / 100;
}
