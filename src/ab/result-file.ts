/**
 * The A/B result file (`ab run|report --result FILE`): the report as JSON, which travels from the
 * A/B workflow to the commenting one as an artifact. That artifact comes from a run that may have
 * tested a fork's pull request, so the commenter checks its shape before trusting any of it.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { NightbenchError } from '../errors.js';
import { parseJsonFile, validate } from '../validation.js';
import type { AbReport } from './report.js';

const summary = z.looseObject({ median: z.number(), mean: z.number(), std: z.number() });
const interval = z.looseObject({ low: z.number(), high: z.number() });

const test = z.looseObject({
  key: z.string(),
  group: z.string(),
  workload: z.string(),
  metric: z.string(),
  unit: z.string(),
  baseline: summary,
  candidate: summary,
  ratio: interval.extend({ ratio: z.number() }).optional(),
  band: interval.optional(),
  p: z.number(),
  pAdjusted: z.number(),
  verdict: z.enum(['better', 'worse', 'changed', 'no clear change']),
});

const failure = z.looseObject({
  group: z.string(),
  suite: z.string(),
  workload: z.string(),
  repeats: z.partialRecord(z.enum(['failed', 'timeout', 'disturbed']), z.number()),
  error: z.string().optional(),
});

const resultSchema = z.looseObject({
  header: z.looseObject({
    id: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an A/B id'),
    status: z.string(),
    groups: z.array(z.looseObject({ label: z.string(), environment: z.string(), role: z.enum(['baseline', 'candidate', 'null']) })),
    repeats: z.number(),
    fdr: z.number(),
    // Result files written before the level was recorded carry none; its default is ab.confidence's.
    confidence: z.number().default(0.95),
    cost: z.looseObject({ seconds: z.number(), clusters: z.number(), repeats: z.number(), parallel: z.number() }).optional(),
  }),
  // Result files written before failures were told apart have none.
  analysis: z.looseObject({ tests: z.array(test), nullTests: z.array(test), failures: z.array(failure).default([]), notes: z.array(z.string()) }),
});

/** Reads and checks a result file; a missing file or one of another shape is a one-line error (exit 2). */
export function readAbResult(file: string): AbReport {
  // The A/B may have failed before its analysis: say so in one line, not with a stack.
  if (!existsSync(file)) throw new NightbenchError('usage', `A/B result ${file}: no such file (did the A/B run with --result?)`);
  // The schema checks every field the comment reads; the rest of the report rides along unread.
  return validate(resultSchema, parseJsonFile(file), `A/B result ${file}`) as unknown as AbReport;
}
