import { z } from 'zod';
import { byteSize, revisionSchema } from '../config/schema.js';

const daskValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One side of an A/B test (ab/environments/NAME.json): what to test, how to set it up, and the
 * settings its cluster runs with.
 */
export const abEnvironmentSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Stored as the runs' environment name; letters, digits, "-", "_", ".". */
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a short name of letters, digits, "-", "_" or "."'),
  description: z.string().optional(),
  /**
   * What to test. `{ "ref": "..." }`: that commit, tag or branch of the target's primary
   * repository (the config's target must be a git target); `{ "installed": true }`: the installed
   * target. Default: the config's target as it is (a git target at its tip).
   */
  target: z.union([z.strictObject({ ref: revisionSchema }), z.strictObject({ installed: z.literal(true) })]).optional(),
  /** A shell command run once before any cluster starts (cwd: the config's folder); it must succeed. */
  setup: z.string().min(1).optional(),
  /**
   * Dask configuration, dotted keys as in Dask's YAML, e.g. `"distributed.scheduler.worker-saturation": 1.0`
   * or `"array.chunk-size": "64MiB"`; given to every cluster and workload process as DASK_ variables.
   */
  daskConfig: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a dotted Dask key such as distributed.scheduler.worker-saturation'), daskValue).default({}),
  /** More environment variables for every cluster and workload process. */
  variables: z.record(z.string(), z.string()).default({}),
  /** A cluster shape for this side instead of the config's (both sides should match to be fair). */
  cluster: z
    .strictObject({
      workers: z.number().int().min(1).max(10_000).optional(),
      threadsPerWorker: z.number().int().min(1).max(1024).optional(),
      memoryPerWorker: byteSize.optional(),
    })
    .optional(),
});

export type AbEnvironment = z.output<typeof abEnvironmentSchema>;

/**
 * The DASK_ variable of each Dask setting, the way `dask.config` reads them back: `__` nests,
 * `-` becomes `_`, values are Python literals (a string stays a string when it is not one).
 */
export function daskVariables(daskConfig: Record<string, z.output<typeof daskValue>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(daskConfig).map(([key, value]) => [`DASK_${key.split('.').map((part) => part.replace(/-/g, '_').toUpperCase()).join('__')}`, pythonLiteral(value)]),
  );
}

function pythonLiteral(value: z.output<typeof daskValue>): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

/** Every variable an environment adds: its Dask settings, then its own variables (which win). */
export function environmentVariables(environment: AbEnvironment): Record<string, string> {
  return { ...daskVariables(environment.daskConfig), ...environment.variables };
}
