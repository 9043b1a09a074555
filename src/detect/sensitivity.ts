/**
 * Sensitivity: the smallest change a series catches within a number of nights at its measured
 * noise and repeats (its minimum detectable effect), and the repeats it would need to catch a
 * target. The one home of the formulas: the verdict's `detectable`, the pages, the summary,
 * issues and `nightbench tune` all read them from here. Pure: numbers in, numbers out.
 *
 * The figures are the change that passes a path's gates in {@link detectionPower} of the nights it
 * happens (the usual definition of a minimum detectable effect): the gate plus {@link powerZ}
 * standard errors, where
 * - on its first night (the fast path) the gate is `noiseMultiple` times the noise of the change,
 *   `noise * sqrt(1 + 1/b)` for a baseline of b nights, and only with `minRepeats` repeats;
 * - within k nights (the persistence path, k at least `persistNights`) it is `persistZ` standard
 *   errors of the mean of k nights against the mean of the s nights since the last judged level,
 *   `persistNoise * sqrt(1/k + 1/s)`, read as a t and widened for the nights' correlation as the
 *   path does, the spread of that widening from series to series counted.
 * Detection reports nothing below the series' threshold, and that is a gate too: the fast path's
 * change must reach the threshold, the persistence path's must not measure clearly below it. A
 * change of the threshold itself measures below it about half the time, so the figures are never
 * the threshold but a little above it (`threshold * e^(0.84 u)` on the first night for its noise
 * of the change u; about a third of a standard error above it within 3 nights): what the threshold
 * allows. What the noise alone allows ({@link minimumDetectable}: the gates without the
 * threshold) is what repeats change, so the repeats a series needs are those that bring that to
 * its threshold (or a target). The rank tests, tonight beyond the noise and the clipped mean cost
 * some power the figures do not count: bench/sensitivity-calibration.ts plants steps of exactly
 * the promised size into synthetic series and counts how many are caught (79-89% of noise-limited
 * promises at CV 3-10% and 1-5 repeats; docs/detection.md has the table). On real series whose
 * nights jump (heavy tails) fewer are caught: `--real` plants it into REALISE's Firefox series,
 * 78% caught (81% where the 30 nights before show lag-1 correlation under 0.2 and excess kurtosis
 * under 3; 65% before the figure read the series' own correlation, {@link correlationAllowance},
 * 76% before it counted the rank test, `SensitivityBasis.rankStep`).
 *
 * @module
 */
import { formatCount, formatPercent } from '../format/index.js';
import { changeNoiseOf, medianNoiseFactor } from './compare.js';
import type { DetectionPolicy } from './policy.js';
import { zAsT } from '../stats/student-t.js';
import { episodeGateStandardErrors, maxCorrelation } from './evidence.js';

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
  /**
   * The change one night alone must reach to open: the threshold, or a multiple of it while the
   * series is young (`judge.ts`); the threshold when absent.
   */
  firstNightThreshold?: number;
  /**
   * Lag-1 correlation of the nights since the last judged level, as the persistence path measures
   * it about their mean; absent when unknown (the nights are then taken as independent).
   */
  correlation?: number;
  /**
   * The step (log) with which `persistNights` nights like these rank apart from them in
   * {@link detectionPower} of the nights it happens (`rankStepNeeded`: the rank test reads the nights
   * as they are, outliers too); at other repeats it scales with the nights' noise. Absent when unknown.
   */
  rankStep?: number;
}

/** The smallest changes a series catches at its settings (relative, e.g. 0.18 for 18%), every gate counted: always above its threshold. */
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
  /**
   * Repeats a night from which the threshold, not the noise, limits what it catches within `nights`
   * nights (what the noise alone allows is at most the threshold), when these are too few; absent
   * when they are enough or when none would be.
   */
  repeatsForThreshold?: number;
  /** What it would catch within `nights` nights at `repeatsForThreshold` repeats (a little above the threshold: see `persistentDetectable`). */
  atRepeatsForThreshold?: number;
  /** True when no number of repeats brings it to its threshold within `nights` nights: the night-to-night noise alone is too large. */
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
 * The smallest change caught within `nights` nights at `repeats` a night as far as the noise goes:
 * the threshold's gate left out (Infinity when no path can catch anything that fast, e.g. one
 * night at one repeat). At or below the threshold, the threshold limits the series, not its noise.
 */
export function minimumDetectable(basis: SensitivityBasis, policy: SensitivityPolicy, nights: number, repeats = basis.repeats): number {
  return noiseLimited(basis, policy, nights, repeats, correlationAllowance(basis.sinceNights, nights, basis.correlation));
}

/** Fewest repeats a night (up to {@link maxTunedRepeats}) at which the noise alone allows `target` within `nights` nights; undefined when none does. */
export function repeatsNeeded(basis: SensitivityBasis, policy: SensitivityPolicy, target: number, nights: number): number | undefined {
  return fewestRepeats(basis, policy, target, nights, correlationAllowance(basis.sinceNights, nights, basis.correlation));
}

/** The verdict's `detectable`: what the series catches at its settings, and what it would need for its threshold. */
export function detectableOf(basis: SensitivityBasis, policy: SensitivityPolicy): Detectable {
  const nights = policy.persistNights;
  const allowance = correlationAllowance(basis.sinceNights, nights, basis.correlation);
  const detectable: Detectable = { ...caughtAt(basis, policy, basis.repeats, allowance), nights, basis };
  if (noiseLimited(basis, policy, nights, basis.repeats, allowance) <= basis.threshold) return detectable;
  const needed = fewestRepeats(basis, policy, basis.threshold, nights, allowance);
  if (needed === undefined) return { ...detectable, thresholdOutOfReach: true };
  return { ...detectable, repeatsForThreshold: needed, atRepeatsForThreshold: detectableWithin({ ...caughtAt(basis, policy, needed, allowance), nights, basis }, nights) };
}

/**
 * {@link minimumDetectable} with the correlation allowance given: it depends on the nights, not on
 * the repeats, so a search over the repeats computes it once (an integral over the correlation:
 * once a repeat, a series no repeats bring to its threshold cost 100 of them).
 */
function noiseLimited(basis: SensitivityBasis, policy: SensitivityPolicy, nights: number, repeats: number, allowance: Allowance): number {
  const { noise, persistNoise } = noiseAt(basis, repeats);
  const first = repeats >= policy.minRepeats ? firstNightDetectable(noise, basis.baselineNights, policy) : Number.POSITIVE_INFINITY;
  const persistent = nights >= policy.persistNights ? persistentDetectable(basis, repeats, persistNoise, nights, policy, allowance) : Number.POSITIVE_INFINITY;
  return Math.min(first, persistent);
}

/** {@link repeatsNeeded} with the correlation allowance given. */
function fewestRepeats(basis: SensitivityBasis, policy: SensitivityPolicy, target: number, nights: number, allowance: Allowance): number | undefined {
  for (let repeats = 1; repeats <= maxTunedRepeats; repeats++) {
    if (noiseLimited(basis, policy, nights, repeats, allowance) <= target) return repeats;
  }
  return undefined;
}

/** What the series catches at `repeats` a night within `policy.persistNights` (whose allowance is given), every gate counted (the threshold's too). */
function caughtAt(basis: SensitivityBasis, policy: SensitivityPolicy, repeats: number, allowance: Allowance): Pick<Detectable, 'repeats' | 'noise' | 'persistNoise' | 'firstNight' | 'persistent'> {
  const { noise, persistNoise } = noiseAt(basis, repeats);
  return {
    repeats,
    noise,
    persistNoise,
    firstNight: repeats >= policy.minRepeats ? firstNightDetectable(noise, basis.baselineNights, policy, basis.firstNightThreshold ?? basis.threshold) : undefined,
    persistent: persistentDetectable(basis, repeats, persistNoise, policy.persistNights, policy, allowance, basis.threshold),
  };
}

/** The smallest change caught within `nights` nights, the fast path's first night counting too. */
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
  /** Repeats a night from which its threshold, not its noise, would limit it within `nights` nights, when these are too few. */
  repeatsForThreshold?: number;
  /** No number of repeats brings it to its threshold within `nights` nights. */
  thresholdOutOfReach?: boolean;
  /** "this test sees a 12% change in 3 nights (...)", with what more repeats would bring it to when its noise limits it. */
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

/** "this test sees a 12% change in 3 nights (45% on its first night)", plus what more repeats would do when its noise, not its threshold, limits it. */
export function describeSensitivity(detectable: Detectable): string {
  const within = detectableWithin(detectable, detectable.nights)!;
  const first = detectable.firstNight === undefined ? ', none on its first night alone' : ` (${formatPercent(roundUp(detectable.firstNight))} on its first night)`;
  const size = formatPercent(roundUp(within));
  return `this test sees ${articleOf(size)} ${size} change in ${detectable.nights} nights${first}${thresholdNeed(detectable)}`;
}

/** "an" before a percentage said with a vowel first (8%, 11%, 18%, 80-89%), else "a". */
function articleOf(percent: string): string {
  return /^(8|1[18](\.|%))/.test(percent) ? 'an' : 'a';
}

/**
 * "3 repeats, 11% nightly noise: changes of 18% or more within 3 nights (45% on their first
 * night)"; the noise is the persistence path's, whose figure the sentence gives first.
 */
export function describeDetectable(detectable: Detectable): string {
  const first = detectable.firstNight === undefined ? ', none on their first night alone' : ` (${formatPercent(roundUp(detectable.firstNight))} on their first night)`;
  return `${formatCount(detectable.repeats, 'repeat')}, ${formatPercent(roundUp(detectable.persistNoise))} nightly noise: changes of ${formatPercent(roundUp(detectable.persistent))} or more within ${detectable.nights} nights${first}`;
}

/**
 * "; with 7 repeats a night it would see 11% in 3 nights, its 10% threshold the limit", or why no
 * number of repeats will do; empty when its threshold, not its noise, limits it already. A change
 * of the threshold itself is never caught in {@link detectionPower} of the nights (it measures
 * below it about half the time), so the repeats bring it to what its threshold allows, said in figures.
 */
function thresholdNeed(detectable: Detectable): string {
  const threshold = formatPercent(detectable.basis.threshold);
  const { basis, nights } = detectable;
  if (detectable.repeatsForThreshold !== undefined) {
    const then = detectable.atRepeatsForThreshold === undefined ? '' : ` it would see ${formatPercent(roundUp(detectable.atRepeatsForThreshold))} in ${nights} nights,`;
    return `; with ${detectable.repeatsForThreshold} repeats a night${then} its ${threshold} threshold the limit`;
  }
  if (!detectable.thresholdOutOfReach) return '';
  const why = basis.repeatSpread > 0 ? 'its night-to-night noise alone is too large' : 'with one repeat a night its noise cannot be told apart from the night-to-night part';
  return `; no number of repeats brings it to its ${threshold} threshold in ${nights} nights (${why})`;
}

/**
 * The change the fast path catches on its first night in {@link detectionPower} of the nights it
 * happens: its log ratio, `unit` = the noise of the change, must reach both the noise gate
 * (`noiseMultiple` units) and the threshold (`change >= threshold` in `judge.ts`), so the larger
 * of the two plus {@link powerZ} units. The noise gate reads the series' noise as estimated, but
 * the promise is made from that same estimate, so its uncertainty does not widen the spread. With
 * `threshold` 0 it is what the noise alone allows (`minimumDetectable`). The threshold counted
 * only as a floor, a change of the threshold was promised where it measures below it, and is not
 * reported, about half the time (bench/sensitivity-calibration.ts: 47-55% of such steps caught
 * on their first night; 74% at CV 3% and 5 repeats, where the noise's figure was just above it).
 */
function firstNightDetectable(noise: number, baselineNights: number, policy: SensitivityPolicy, threshold = 0): number {
  const unit = changeNoiseOf(noise, baselineNights);
  return Math.expm1(Math.max(Math.log1p(threshold), policy.noiseMultiple * unit) + powerZ * unit);
}

/**
 * The change the persistence path catches within `nights` nights in {@link detectionPower} of
 * the nights it happens, in units of `unit`, the standard deviation of the mean of those nights
 * against the mean of the `sinceNights` before them (nights independent). The path compares those
 * means and reads its t, whose noise it estimated, on the normal scale (`tAsZ` in `evidence.ts`):
 * the gate is a t of `zAsT(persistZ, degrees)`, 5.1 at 31 nights where persistZ is 4.3. Its
 * standard error is widened by sqrt((1 + r) / (1 - r)) for the nights' lag-1 correlation r,
 * estimated from the nights themselves and taken at least 0, so on independent nights the gate
 * stands at `gate * sqrt((1 + r) / (1 - r))` units, r spreading about 1 / sqrt(n) around 0 from
 * n nights: its mean is the allowance, and its spread from series to series adds to the spread of
 * the measured shift (1 unit), so the change must be the gate's mean plus {@link powerZ} times
 * sqrt(1 + gate^2 * variance of the allowance). The noise the gate divides by is estimated, but
 * the promise is made from that same estimate (the same nights but the few after them), so its
 * uncertainty largely cancels. (The figure read it as a noncentral t's spread, sqrt(1 + t^2 / 2
 * degrees), and counted the allowance at its mean only, multiplying the whole figure; the two
 * nearly offset (6.49 units either way at 31 nights and one repeat; 5.92 then and 5.99 now where
 * the repeats' floor gives 66 degrees), and the 1-repeat series' shortfall, 76-77% caught, came
 * from the noise they were promised with: `judge.ts`.)
 * A shift also opens only if it does not measure `episodeGateStandardErrors` below the threshold
 * (`evidence.ts`): that gate sits half an estimated standard error under the threshold.
 * With `threshold` 0 it is what the noise alone allows (`minimumDetectable`).
 */
function persistentDetectable(basis: SensitivityBasis, repeats: number, persistNoise: number, nights: number, policy: SensitivityPolicy, allowance: Allowance, threshold = 0): number {
  const { sinceNights } = basis;
  const degrees = persistDegrees(basis, repeats, persistNoise, nights);
  const gate = zAsT(policy.persistZ, degrees);
  const unit = persistNoise * Math.sqrt(1 / nights + 1 / sinceNights);
  const noiseGate = gate * allowance.mean + powerZ * Math.sqrt(1 + gate * gate * allowance.variance);
  const thresholdGate = Math.log1p(threshold) + (powerZ - episodeGateStandardErrors * allowance.mean) * unit;
  // Measured on the nights at the series' repeats; at others it scales with the nights' noise, as
  // the rest of the figure does (`noiseAt`), so more repeats never promise less.
  const rankGate = nights === policy.persistNights && basis.rankStep !== undefined && basis.persistNoise > 0 ? (basis.rankStep * persistNoise) / basis.persistNoise : 0;
  return Math.expm1(Math.max(noiseGate * unit, threshold > 0 ? thresholdGate : 0, rankGate));
}

/** The correlation allowance's mean and variance over series (`correlationAllowance`). */
interface Allowance {
  mean: number;
  variance: number;
}

/**
 * Mean and variance of the factor sqrt((1 + r) / (1 - r)) by which the persistence path widens a
 * standard error for the lag-1 correlation r it estimates from the nights (`strongestShift`: at
 * least 0, at most `maxCorrelation`), for a step after `sinceNights` nights judged within `nights`.
 * The test's estimate spreads about 1 / sqrt(n) over n nights, around the series' own lag-1
 * correlation where it is known, else around 0 (independent nights: half the series take 0, the
 * others a positive r). Centred on 0, a promise was caught in 30% of the steps planted into
 * REALISE's Firefox series where the 30 nights before showed a correlation of 0.3 or more, 65% in
 * all; centred on the series' own, 76% in all, and synthetic series 83-87% (with half that spread
 * around it, 70% and 77-82%: the test reads its r on the split's two sides, not the nights
 * before, and the step's nights join them; `bench/sensitivity-calibration.ts --real`). By the
 * midpoint rule over r.
 */
function correlationAllowance(sinceNights: number, nights: number, correlation?: number): Allowance {
  const n = sinceNights + nights;
  const centre = correlation ?? 0;
  const spread = 1 / Math.sqrt(n);
  const factorAt = (r: number) => Math.sqrt((1 + r) / (1 - r));
  const steps = 256;
  const low = centre - 8 * spread;
  const width = 16 * spread;
  let mean = 0;
  let square = 0;
  for (let i = 0; i < steps; i++) {
    const r = low + ((i + 0.5) / steps) * width;
    const weight = (width / steps) * Math.exp(-0.5 * ((r - centre) / spread) ** 2) / (spread * Math.sqrt(2 * Math.PI));
    const factor = factorAt(Math.min(maxCorrelation, Math.max(0, r)));
    mean += weight * factor;
    square += weight * factor * factor;
  }
  return { mean, variance: Math.max(0, square - mean * mean) };
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
