import { z } from 'zod';
import { parseSize } from './units.js';
import { githubSchema } from './github-section.js';
import { abSectionSchema } from './ab-section.js';
import { detectionSchema } from '../detect/policy.js';
import { cutoffTimePattern, defaultCutoffTime } from '../night.js';

/** A byte count: a positive integer, or a string such as "2GiB" or "512 MB". */
export const byteSize = z.union([z.number(), z.string()]).transform((value, context) => {
  const bytes = typeof value === 'number' ? value : parseSize(value);
  if (bytes === undefined || !Number.isInteger(bytes) || bytes <= 0) {
    context.addIssue({ code: 'custom', message: `must be a size such as "2GiB", "512MiB" or a positive number of bytes, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return bytes;
});

/** A branch, tag or commit: never something git could take for an option. */
export const revisionSchema = z.string().min(1).regex(/^[^-]/, 'must not start with "-"');

const repositoryName = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a short name of letters, digits, "-", "_" or "."');

export const gitRepositorySchema = z.strictObject({
  /** Short name used in placeholders ({checkout:NAME}) and in the history. */
  name: repositoryName,
  /** A URL or a local path that `git clone` accepts. */
  url: z.string().min(1),
  branch: revisionSchema.default('main'),
  /** Link template for commits in issues and pages, e.g. https://github.com/dask/dask/commit/{sha}. */
  commitUrl: z.string().optional(),
});

export const installedTargetSchema = z.strictObject({
  kind: z.literal('installed'),
  name: z.string().min(1).default('dask'),
  /** Python distributions whose versions identify the target. */
  packages: z.array(z.string().min(1)).min(1).default(['dask', 'distributed']),
});

export const gitTargetSchema = z.strictObject({
  kind: z.literal('git'),
  name: z.string().min(1),
  /** Tested together, each at its own tip, e.g. dask/dask plus dask/distributed; the first is the primary. */
  repositories: z.array(gitRepositorySchema).min(1),
  /** "HH:MM" UTC: a replayed night (--night) tests each repository at its last commit before this time of that day. */
  cutoff: z.string().regex(cutoffTimePattern, 'must be a time of day "HH:MM" (UTC), such as "02:17"').default(defaultCutoffTime),
  setup: z
    .strictObject({
      /** A shell command run in the first checkout after every checkout, e.g. a build. */
      command: z.string().min(1).optional(),
      /** Variables for every cluster and workload process; {checkout:NAME} is that repository's work tree. */
      env: z.record(z.string(), z.string()).default({}),
    })
    .default({ env: {} }),
});

export const targetSchema = z.discriminatedUnion('kind', [installedTargetSchema, gitTargetSchema]);

export const clusterSchema = z.strictObject({
  provider: z.string().min(1).default('local'),
  workers: z.number().int().min(1).max(10_000).default(2),
  threadsPerWorker: z.number().int().min(1).max(1024).default(1),
  memoryPerWorker: byteSize.default(2 * 2 ** 30),
  /** Seconds to wait for the scheduler and every worker to be up. */
  startTimeoutSeconds: z.number().positive().default(120),
  /** Options of the provider named above, validated by that provider (e.g. "netns", "ec2"). */
  options: z.record(z.string(), z.unknown()).default({}),
});

export const environmentSchema = z.strictObject({
  name: z.string().min(1).default('default'),
  /** Variables for the cluster and the workloads, e.g. DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION. */
  variables: z.record(z.string(), z.string()).default({}),
});

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  target: targetSchema.default({ kind: 'installed', name: 'dask', packages: ['dask', 'distributed'] }),
  /** Folders under workloads/ (or paths) of the suites to run. */
  suites: z.array(z.string().min(1)).min(1).default(['dask']),
  /** The interpreter of Python suites and of the installed target; default: the suite's own. */
  python: z.string().min(1).optional(),
  /** Only these workloads (exact names); empty means all. */
  workloads: z.array(z.string().min(1)).default([]),
  cluster: clusterSchema.default(() => clusterSchema.parse({})),
  repeats: z.number().int().min(1).max(1000).default(3),
  /** Repeats run before the measured ones on each fresh cluster: recorded apart (db/migrations/007-warmup-repeats.sql), never compared. */
  warmupRepeats: z.number().int().min(0).max(10).default(0),
  /** A multiplier on each workload's data size; 1 fills the cluster as the suite intends. */
  scale: z.number().positive().max(1000).default(1),
  timeLimitSeconds: z.number().positive().default(900),
  /**
   * Minutes a night (one `nightly` or `run`) may take, e.g. its shard's job limit: a repeat that
   * failed for the machine's sake is retried only while one more repeat's time limit fits. Unset: no limit.
   */
  timeBudgetMinutes: z.number().positive().optional(),
  /** How often every cluster process is sampled (RSS, CPU) while a workload runs. */
  sampleIntervalSeconds: z.number().min(0.01).max(60).default(0.25),
  environment: environmentSchema.default(() => environmentSchema.parse({})),
  history: z
    .strictObject({
      path: z.string().min(1).default('.nightbench/history.sqlite'),
      /** How long one attempt of a write waits for another writer; writes are then retried for up to 2 minutes (src/history/busy-retry.ts). */
      busyTimeoutMs: z.number().int().min(0).default(5000),
    })
    .default({ path: '.nightbench/history.sqlite', busyTimeoutMs: 5000 }),
  /** Scratch space: checkouts, worker directories, metric files. */
  workdir: z.string().min(1).default('.nightbench'),
  reports: z.strictObject({ dir: z.string().min(1).default('reports') }).default({ dir: 'reports' }),
  /** Regression detection: window, thresholds, significance, episodes; see src/detect/policy.ts. */
  detection: detectionSchema.default(() => detectionSchema.parse({})),
  /** Issues on GitHub (or as files): see src/config/github-section.ts. */
  github: githubSchema.default(() => githubSchema.parse({})),
  /** A/B tests (nightbench ab): environments, repeats, null hypothesis, order; see src/config/ab-section.ts. */
  ab: abSectionSchema.default(() => abSectionSchema.parse({})),
});

export type RawConfig = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type Target = Config['target'];
export type GitTarget = z.output<typeof gitTargetSchema>;
