import type { Direction, MetricDirection } from '../direction.js';
import { formatBand, formatP } from '../format/index.js';
import type { RatioInterval } from '../stats/index.js';

/**
 * better / worse: a significant change beyond the noise band on a metric with a direction
 * (faster / slower for times); changed: the same on a metric without one; no clear change: anything else.
 */
export type Verdict = 'better' | 'worse' | 'changed' | 'no clear change';

/**
 * How A/B reads a metric: which way is better, or `either` for a metric that declares none, whose
 * significant change is `changed` (detection, by contrast, judges such a metric by its policy).
 */
export type AbDirection = Direction | 'either';

/** A/B's reading of a declared direction; a metric nobody declared has none either. */
export function abDirection(declared: MetricDirection | undefined): AbDirection {
  return declared === undefined || declared === 'none' ? 'either' : declared;
}

/** The ratios B/A that noise alone produced in the A/A comparison of the same test. */
export interface NoiseBand {
  low: number;
  high: number;
}

/**
 * The A/A band of a test: A'/A's ratio and bootstrap interval, made symmetric in log space because
 * which of A and A' is called the baseline is arbitrary (a 0.9 one way is a 1.11 the other).
 */
export function noiseBand(nullRatio: RatioInterval): NoiseBand {
  const halfWidth = Math.max(...[nullRatio.low, nullRatio.high, nullRatio.ratio].map((r) => Math.abs(Math.log(r))));
  return { low: Math.exp(-halfWidth), high: Math.exp(halfWidth) };
}

export interface VerdictInput {
  /** B/A ratio of medians; undefined when it cannot be computed (a baseline value <= 0). */
  ratio?: number;
  /** median(B) - median(A): which way a test without a ratio moved (0 bytes spilled, then 1 GiB). */
  difference: number;
  /** Benjamini-Hochberg adjusted p-value of the rank test. */
  pAdjusted: number;
  fdr: number;
  /** Undefined without the null hypothesis: then significance alone decides. */
  band?: NoiseBand;
  direction: AbDirection;
}

export interface Judgement {
  verdict: Verdict;
  /** Why, in a few words, for the report. */
  reason: string;
}

/**
 * "faster" and "slower" need significance after correction and a change beyond the A/A band. A test
 * without a ratio (a baseline of zeros: nothing spilled) has no band to be beyond: significance
 * alone decides it, as without an A/A, and the medians say which way it went.
 */
export function judge(input: VerdictInput): Judgement {
  if (!(input.pAdjusted <= input.fdr)) return { verdict: 'no clear change', reason: `not significant (adjusted p ${formatP(input.pAdjusted)} > ${input.fdr})` };
  if (input.ratio === undefined || !Number.isFinite(input.ratio)) return directed(input.direction, input.difference, 'significant; no ratio (a baseline value is not positive), so no A/A band applies');
  if (input.band && input.ratio >= input.band.low && input.ratio <= input.band.high) {
    return { verdict: 'no clear change', reason: `significant but within the A/A band ${formatBand(input.band)}` };
  }
  return directed(input.direction, input.ratio - 1, `significant, ${input.band ? 'beyond the A/A band' : 'no A/A band'}`);
}

/** The verdict of a significant change that went up (change > 0) or down. */
function directed(direction: AbDirection, change: number, reason: string): Judgement {
  if (direction === 'either' || change === 0) return { verdict: 'changed', reason };
  const better = direction === 'higher' ? change > 0 : change < 0;
  return { verdict: better ? 'better' : 'worse', reason };
}

/** A verdict as people say it of this metric: faster/slower for times. */
export function verdictLabel(verdict: Verdict, unit: string): string {
  const time = unit === 's' || unit === 'seconds';
  if (time && verdict === 'better') return 'faster';
  if (time && verdict === 'worse') return 'slower';
  return verdict;
}
