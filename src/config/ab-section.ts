import { z } from 'zod';

/**
 * Default repeats per side. The issue asked for 5; 8 is used because the exact Mann-Whitney test
 * at n = 5 per side can never give a p-value below 2/C(10,5) = 0.0079, so after Benjamini-Hochberg
 * over m tests one complete separation is significant only when m <= 6. At n = 8 the floor is
 * 2/C(16,8) = 1.6e-4: one clean difference survives among ~300 tests, one swapped pair among ~150.
 * See ab/README.md.
 */
export const defaultAbRepeats = 8;

/**
 * The `ab` section of a nightbench config (e.g. ab/config.json). The rest of that file is an
 * ordinary config: target, suites, `workloads` (the filter), `cluster` (provider and size), history.
 */
export const abSectionSchema = z
  .strictObject({
    /** Environment files (relative to the config file), the baseline first. */
    environments: z.array(z.string().min(1)).default([]),
    /** Values per environment and workload. */
    repeats: z.number().int().min(2).max(1000).default(defaultAbRepeats),
    /** Run the baseline twice (A and A'), analysed like A vs B: each test's own noise band. */
    nullHypothesis: z.boolean().default(true),
    /**
     * `blocks`: every round runs each environment once, alternating forward and backward
     * (A A' B | B A' A | ...), so a linear drift of the machine favours no side. `random`: each
     * round in a seeded random order.
     */
    order: z.enum(['blocks', 'random']).default('blocks'),
    /** Seed of the order and of the bootstrap; default: drawn at the start and recorded. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    /** Consecutive repeats on one cluster (worker restart between them) before switching side. */
    blockSize: z.number().int().min(1).max(100).default(1),
    /** Slots (clusters) running at once; keep 1 on one machine, raise it with ec2. */
    maxParallel: z.number().int().min(1).max(64).default(1),
    /** False discovery rate of the Benjamini-Hochberg control across all tests of an A/B. */
    fdr: z.number().gt(0).lt(1).default(0.05),
    /** Level of the bootstrap interval of the ratio of medians. */
    confidence: z.number().gt(0).lt(1).default(0.95),
    resamples: z.number().int().min(100).max(100_000).default(2000),
  })
  .refine((ab) => ab.environments.length === 0 || ab.environments.length >= 2 || ab.nullHypothesis, {
    message: 'needs two environments (a baseline and a candidate), or one with nullHypothesis on',
    path: ['environments'],
  });

export type AbSection = z.output<typeof abSectionSchema>;

/** What the analysis needs of the A/B section; recorded with the test so a report can repeat it. */
export type AnalysisOptions = Pick<AbSection, 'fdr' | 'confidence' | 'resamples'> & { seed: number };
