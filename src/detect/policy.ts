/**
 * The detection policy: the `detection` section of the config, and how it resolves to the
 * threshold and direction of one series. Pure: no I/O.
 *
 * @module
 */
import { z } from 'zod';
import type { Direction } from '../direction.js';

/**
 * Which way is better for a metric, in the suite's vocabulary (`src/suite/schema.ts`): time and
 * memory (every runner metric) are `lower`. The older spellings `lower-is-better` and
 * `higher-is-better` are still read.
 */
export const directionSchema = z.preprocess(
  (value) => (value === 'lower-is-better' ? 'lower' : value === 'higher-is-better' ? 'higher' : value),
  z.enum(['lower', 'higher']),
);
export type { Direction };

/** A relative change, e.g. 0.1 for 10%. */
const fraction = z.number().positive().max(10);

/**
 * A threshold for some series. Every field given must match. Among the matching rules a metric
 * outranks a workload, which outranks a suite (a rule naming a metric and a workload beats one
 * naming only the metric); a later rule wins a tie.
 */
export const thresholdRuleSchema = z
  .strictObject({
    suite: z.string().min(1).optional(),
    workload: z.string().min(1).optional(),
    metric: z.string().min(1).optional(),
    threshold: fraction,
  })
  .refine((rule) => rule.suite !== undefined || rule.workload !== undefined || rule.metric !== undefined, {
    message: 'a threshold rule names at least one of suite, workload, metric (the global one is detection.threshold)',
  });

export const detectionSchema = z.strictObject({
  /**
   * Results before the judged night that form the fast path's baseline: nights on which the
   * series has an ok point, not calendar days (issue 30: an imported history has one value per
   * commit on irregular dates, a nightly skips nights). The name is kept so configs keep working.
   */
  windowDays: z.number().int().min(1).max(365).default(7),
  /**
   * Results (ok nights of the series, as `windowDays`) before the judged night whose medians give
   * the series' noise and the persistence path's baseline (since the last level shift): a longer
   * look than the window, so that a moderate shift is measured against a well-known level.
   */
  lookbackDays: z.number().int().min(1).max(365).default(30),
  /**
   * The persistence path compares the nights since a shift with at most this many nights just
   * before it (the level it left), however old the shift is: a slow drift over the lookback is
   * not a step against its distant start (with `earlierBaseline`, however far before the lookback).
   */
  persistBaselineNights: z.number().int().min(1).max(365).default(30),
  /**
   * Whether a series the lookback finds stable is judged a second time for a regression, with the
   * `earlierBaselineResults` results before the lookback in the persistence path's baseline (back
   * to the level judged last; shifts still start inside the lookback; a baseline of at most
   * `persistBaselineNights`), so that a step's baseline erodes less as it ages and a regression
   * the first nights missed is still found (issue 31). Off: the lookback alone, as before 2026-12
   * (docs/detection-design.md, "A second look for regressions").
   */
  earlierBaseline: z.boolean().default(true),
  /**
   * How many results before the lookback the second look reads (`earlierBaseline`): as many as the
   * lookback, so a step is still judged against the nights before it until it is as old as the
   * lookback itself. Each is read for every series, every night: at 20,000 series a night's
   * detection takes about 1.3 times as long with 30 as without (1.1 with 10), for +10% at CV 10%
   * and one repeat found within 28 nights in 22% of series (15% with 10, 9% without;
   * bench/README.md, docs/detection.md).
   */
  earlierBaselineResults: z.number().int().min(1).max(365).default(30),
  /** The persistence path opens an episode once at least this many nights (tonight included) agree on a shift. */
  persistNights: z.number().int().min(1).max(30).default(3),
  /**
   * How far (in standard errors, read on the normal scale) the nights since a shift must stand
   * from the level judged last for the persistence path (see `src/detect/evidence.ts`). The test
   * scans every split every night, so this is far above a single test's 4: 4.3 keeps false alarms
   * near 0.5 per 100 unchanged series x 60 nights at CV 5-10% and 1-3 repeats (bench/detect-quality.ts).
   */
  persistZ: z.number().positive().max(100).default(4.3),
  /**
   * Standard errors beyond `persistZ` the persistence path asks of an improvement before it opens
   * one. Until then the improved level is held (`heldImprovementStart` in `src/detect/evidence.ts`):
   * a regression is judged against it as well as against the level before it, so a regression right
   * after a speed-up is not hidden by it. 0 opens improvements at `persistZ`, as regressions.
   */
  improvementMarginZ: z.number().min(0).max(100).default(1),
  /** A series with fewer good nights than this in its window is reported as insufficient, never judged. */
  minBaselineNights: z.number().int().min(1).max(365).default(3),
  /**
   * Ok repeats a night needs for the fast path (one night alone opening an episode); with fewer
   * the night still counts for the persistence path.
   */
  minRepeats: z.number().int().min(1).max(1000).default(2),
  /**
   * Smallest relative change that counts, in either direction (0.10 = 10%): the product's promise
   * to Dask's maintainers is an issue for a 10% degradation, not for every 3% wobble of an
   * end-to-end benchmark on shared hardware. Series whose real changes are smaller (Mozilla's
   * labelled 2-7% steps) set a lower `threshold` or per-series `thresholds`; bench/detect-quality.ts
   * prints REALISE at both 10% and 5%.
   */
  threshold: fraction.default(0.1),
  /** Per suite, workload and metric thresholds; see {@link thresholdRuleSchema}. */
  thresholds: z.array(thresholdRuleSchema).default([]),
  /**
   * Significance level of the one-sided rank test of tonight's repeats against the baseline's.
   * Exact p-values are discrete: with 3 repeats a night and b baseline nights the smallest is
   * 1 / C(3 + 3b, 3), i.e. 1/84 for b = 2, so the default needs at least 3 baseline nights.
   */
  alpha: z.number().gt(0).lt(1).default(0.01),
  /**
   * The change must exceed this many times the noise of a nightly median (what the baseline
   * week's night-to-night spread shows), so a noisy series needs a bigger change.
   */
  noiseMultiple: z.number().positive().max(100).default(4),
  /** Nights back within noise of the pre-regression level, in a row, that close an episode as recovered. */
  recoveryNights: z.number().int().min(1).max(365).default(2),
  /** "Within noise": within this many times the pre-regression noise of a nightly median. */
  recoveryNoiseMultiple: z.number().positive().max(100).default(2),
  /** Per metric, which way is better; overrides the suite's declaration (a metric neither names is `lower`). */
  directions: z.record(z.string().min(1), directionSchema).default({}),
});

/** The validated `detection` section. */
export type DetectionPolicy = z.output<typeof detectionSchema>;
export type RawDetectionPolicy = z.input<typeof detectionSchema>;

/** The built-in policy (an empty `detection` section). */
export const defaultDetectionPolicy: DetectionPolicy = detectionSchema.parse({});

/** Results (ok nights of a series) before the judged night that detection reads: the lookback, at least the window. */
export function lookbackResults(policy: Pick<DetectionPolicy, 'windowDays' | 'lookbackDays'>): number {
  return Math.max(policy.windowDays, policy.lookbackDays);
}

/**
 * Results before the judged night that detection reads: the lookback, and with `earlierBaseline`
 * the `earlierBaselineResults` before it, which the second look's persistence path reads as
 * baseline only (`Comparison.earlier`).
 */
export function readResults(policy: Pick<DetectionPolicy, 'windowDays' | 'lookbackDays' | 'earlierBaseline' | 'earlierBaselineResults'>): number {
  return lookbackResults(policy) + (policy.earlierBaseline ? policy.earlierBaselineResults : 0);
}

/** What the policy says about one series. */
export interface SeriesPolicy {
  threshold: number;
  direction: Direction;
}

/** Where a series sits, as far as the policy is concerned. */
export interface PolicySubject {
  suite: string;
  workload: string;
  metric: string;
}

/**
 * The threshold and direction of one series: the most specific matching rule, else the global
 * values. The direction: the config's, else the suite's declaration (`declared`), else `lower`.
 */
export function resolveSeriesPolicy(policy: DetectionPolicy, subject: PolicySubject, declared?: Direction): SeriesPolicy {
  let threshold = policy.threshold;
  let bestSpecificity = 0;
  for (const rule of policy.thresholds) {
    if (rule.suite !== undefined && rule.suite !== subject.suite) continue;
    if (rule.workload !== undefined && rule.workload !== subject.workload) continue;
    if (rule.metric !== undefined && rule.metric !== subject.metric) continue;
    const specificity = Number(rule.suite !== undefined) + 2 * Number(rule.workload !== undefined) + 4 * Number(rule.metric !== undefined);
    if (specificity >= bestSpecificity) {
      bestSpecificity = specificity;
      threshold = rule.threshold;
    }
  }
  return { threshold, direction: policy.directions[subject.metric] ?? declared ?? 'lower' };
}
