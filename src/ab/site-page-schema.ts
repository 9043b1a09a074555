/**
 * The shape of an A/B report as the site reads it: a JSON file in `<reports.dir>/ab/` that
 * `nightbench ab report` writes (page.ts) and `nightbench report` validates. Its writer owns it, so
 * the site (a floor above) imports it from here and the A/B module imports nothing from the site.
 *
 * @module
 */
import { z } from 'zod';

export const abComparisonSchema = z.strictObject({
  workload: z.string().min(1),
  metric: z.string().min(1),
  unit: z.string(),
  baselineMedian: z.number(),
  candidateMedian: z.number(),
  /** candidate / baseline median, with its confidence interval when there is one; absent when a baseline value is not positive (nothing spilled). */
  ratio: z.number().optional(),
  low: z.number().optional(),
  high: z.number().optional(),
  p: z.number().min(0).max(1).optional(),
  /** e.g. "faster", "slower", "no change"; shown as given. */
  verdict: z.string().min(1),
  /** The figures the verdict rests on, e.g. ["A/A band -4.6% … +4.8%", "raw p 0.00016"], shown under it a line each (files written before carried them inside `verdict`). */
  verdictFigures: z.array(z.string().min(1)).optional(),
  /** Means and standard deviations of each side, for the bars (median bar, mean mark, sd whisker). */
  baselineMean: z.number().optional(),
  baselineStd: z.number().optional(),
  candidateMean: z.number().optional(),
  candidateStd: z.number().optional(),
  /** The test's A/A band of the ratio: the noise of the baseline against itself. */
  bandLow: z.number().optional(),
  bandHigh: z.number().optional(),
  /** Every clean repeat's value of each side: the drill-down into the individual runs. */
  baselineValues: z.array(z.number()).optional(),
  candidateValues: z.array(z.number()).optional(),
});

export const abSitePageSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().min(1),
  /** ISO 8601; the A/B index lists the newest first. */
  createdAt: z.string().min(1),
  baseline: z.strictObject({ name: z.string().min(1), description: z.string().optional() }),
  candidate: z.strictObject({ name: z.string().min(1), description: z.string().optional() }),
  /** Free text shown above the table (plain text, escaped). */
  summary: z.string().optional(),
  /** Level of the ratios' intervals (ab.confidence); files written before it was recorded carry none (the default then, 0.95). */
  confidence: z.number().gt(0).lt(1).optional(),
  /** Workloads that never ran cleanly on a side, one line each, shown apart from the tests (absent in files written before). */
  failures: z.array(z.string().min(1)).optional(),
  comparisons: z.array(abComparisonSchema),
});

export type AbSitePage = z.output<typeof abSitePageSchema>;
