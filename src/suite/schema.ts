import { z } from 'zod';
import { metricDirections } from '../direction.js';

const argv = z.array(z.string().min(1)).min(1);

/** workloads/<suite>/suite.json: how to list and run a suite's workloads and what to start. */
export const suiteFileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lower-case letters, digits, "-" or "_"'),
  description: z.string().default(''),
  python: z.string().min(1).optional(),
  list: argv,
  run: argv,
  ready: argv,
  reset: argv.optional(),
  processes: z.strictObject({
    scheduler: z.strictObject({ command: argv, address: z.string().min(1) }),
    worker: z.strictObject({ command: argv }),
  }),
});

export const metricDirection = z.enum(metricDirections);

/** What `list` prints: the workloads and the metrics each reports itself. */
export const workloadListingSchema = z.strictObject({
  suite: z.string(),
  workloads: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string().default(''),
        version: z.string().default(''),
        tags: z.array(z.string()).default([]),
        metrics: z.array(z.object({ name: z.string().min(1), unit: z.string().min(1), direction: metricDirection.default('lower') })).default([]),
        /** Why the target's version cannot run this workload at all (an import it lacks): recorded as unsupported, not run. */
        unsupported: z.string().min(1).optional(),
      }),
    )
    .min(1),
});

/** What a workload writes to NIGHTBENCH_METRICS_FILE. */
export const workloadMetricsSchema = z.object({
  metrics: z.record(z.string(), z.object({ value: z.number().finite(), unit: z.string().min(1) })).default({}),
  /** Metrics the target's version cannot report, with why: absent for the run, never a failure. */
  absent: z.record(z.string(), z.string().min(1)).default({}),
  disturbances: z.array(z.string()).default([]),
  info: z.record(z.string(), z.unknown()).default({}),
});

export type SuiteFile = z.output<typeof suiteFileSchema>;
export type WorkloadListing = z.output<typeof workloadListingSchema>;
export type Workload = WorkloadListing['workloads'][number];
export type { MetricDirection } from '../direction.js';
