/**
 * How one bisect step is decided, from the series' own noise: the good and bad levels come from
 * reference repeats of the last good and first bad states measured during the bisect; a candidate
 * is then judged by a sequential probability ratio test between those two levels (more repeats
 * while undecided, up to a cap), never on fewer repeats than the noise requires, and called
 * "partial" when it sits clearly between them. Pure.
 *
 * @module
 */
import { median } from 'simple-statistics';
import { mannWhitneyU, relativeSpread } from '../stats/index.js';

export interface DecisionPolicy {
  /** Error rates of each step's test (both kinds); the SPRT bound is ln((1 - a) / a). */
  stepError: number;
  /** How many standard errors from a level make a candidate clearly not at it. */
  zCritical: number;
  /** Significance the good and bad states must reach against each other to count as reproduced. */
  reproduceAlpha: number;
  /** The fewest repeats of anything decided, whatever the noise. */
  minRepeats: number;
  /** The most repeats of one candidate (and of each end while reproducing): then "undecided". */
  maxRepeats: number;
  /** Rounds of culprit against parent in the confirmation. */
  confirmRepeats: number;
}

export const defaultDecisionPolicy: DecisionPolicy = { stepError: 0.01, zCritical: 3, reproduceAlpha: 0.01, minRepeats: 2, maxRepeats: 12, confirmRepeats: 6 };

/** The good and bad levels and the noise of one repeat, in the metric's unit. */
export interface Levels {
  good: number;
  bad: number;
  sigma: number;
}

/**
 * Levels from the reference repeats. The noise is the larger of the pooled robust spread of
 * the two ends and `priorNoise` (relative, e.g. the series' nightly noise per repeat): a few
 * lucky repeats must not make the bisect believe the machine is quieter than its history says.
 */
export function estimateLevels(good: readonly number[], bad: readonly number[], priorNoise = 0): Levels {
  const g = median([...good]);
  const b = median([...bad]);
  const spread = (values: readonly number[]) => (values.length >= 3 && median([...values]) > 0 ? relativeSpread(values) : 0);
  const pooled = Math.sqrt((spread(good) ** 2 + spread(bad) ** 2) / 2);
  const sigma = Math.max(pooled, priorNoise) * ((Math.abs(g) + Math.abs(b)) / 2);
  // A noiseless series still needs a scale: 1% of the levels keeps the tests finite.
  return { good: g, bad: b, sigma: sigma > 0 ? sigma : 0.01 * Math.max(Math.abs(g), Math.abs(b), 1e-12) };
}

/**
 * The fewest repeats after which a candidate sitting at one level is `zCritical` standard errors
 * from the midpoint between the levels: fewer cannot tell the two apart, whatever they show.
 */
export function requiredRepeats(levels: Levels, policy: DecisionPolicy): number {
  const halfGap = Math.abs(levels.bad - levels.good) / 2;
  if (halfGap === 0) return policy.maxRepeats;
  return Math.min(policy.maxRepeats, Math.max(policy.minRepeats, Math.ceil(((policy.zCritical * levels.sigma) / halfGap) ** 2)));
}

export type StepVerdict = 'good' | 'bad' | 'partial' | 'undecided';

export interface StepDecision {
  /** `more`: undecided but below the cap. */
  verdict: StepVerdict | 'more';
  /** Where the candidate's mean sits: 0 at the good level, 1 at the bad one. */
  position: number;
  /** The SPRT's log-likelihood ratio of bad against good. */
  llr: number;
}

/** Judges a candidate's repeats so far against the levels. */
export function decideStep(values: readonly number[], levels: Levels, policy: DecisionPolicy): StepDecision {
  const { good, bad, sigma } = levels;
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  const position = bad === good ? 0.5 : (mean - good) / (bad - good);
  const bound = Math.log((1 - policy.stepError) / policy.stepError);
  // Each repeat's contribution is clipped at half the bound, so one outlier never decides alone.
  const llr = values.reduce((sum, x) => sum + clip(((x - good) ** 2 - (x - bad) ** 2) / (2 * sigma ** 2), bound / 2), 0);
  if (n < requiredRepeats(levels, policy)) return { verdict: n >= policy.maxRepeats ? 'undecided' : 'more', position, llr };
  const standardError = sigma / Math.sqrt(n);
  const awayFromGood = Math.abs(mean - good) / standardError > policy.zCritical;
  const awayFromBad = Math.abs(mean - bad) / standardError > policy.zCritical;
  if (awayFromGood && awayFromBad && position > 0 && position < 1) return { verdict: 'partial', position, llr };
  if (llr >= bound) return { verdict: 'bad', position, llr };
  if (llr <= -bound) return { verdict: 'good', position, llr };
  return { verdict: n >= policy.maxRepeats ? 'undecided' : 'more', position, llr };
}

export type Reproduction = 'reproduced' | 'not-reproduced' | 'more';

/**
 * Whether the last good and first bad states still differ: a two-sided Mann-Whitney test at
 * `reproduceAlpha` and a gap of at least `zCritical` standard errors of the difference. At the
 * cap without both, the regression did not reproduce.
 */
export function judgeReproduction(good: readonly number[], bad: readonly number[], policy: DecisionPolicy, priorNoise = 0): Reproduction {
  const n = Math.min(good.length, bad.length);
  if (n < Math.max(policy.minRepeats, 2)) return 'more';
  const levels = estimateLevels(good, bad, priorNoise);
  const gapInErrors = Math.abs(levels.bad - levels.good) / (levels.sigma * Math.sqrt(2 / n));
  const { p } = mannWhitneyU(bad, good);
  if (p < policy.reproduceAlpha && gapInErrors > policy.zCritical && n >= requiredRepeats(levels, policy)) return 'reproduced';
  return n >= policy.maxRepeats ? 'not-reproduced' : 'more';
}

function clip(x: number, limit: number): number {
  return Math.max(-limit, Math.min(limit, x));
}
