/**
 * Bencher Metric Format (BMF) JSON, both ways. Pure. The format, from Bencher's reference
 * ("Bencher Metric Format (BMF)" and its JSON schema): an object of benchmark name -> measure
 * (slug) -> {value, lower_value?, upper_value?}. A BMF document is one run; it names no commit,
 * date or machine, so those come from the command line. The built-in measures' units and
 * directions are Bencher's: latency in nanoseconds and throughput in operations per second.
 *
 * @module
 */
import { z } from 'zod';
import type { Series } from '../detect/series.js';
import { medianOf } from '../stats/segmentation.js';
import { validate } from '../validation.js';
import type { MetricDirection } from '../direction.js';
import type { ImportedCommit, ImportedRun } from './types.js';

const metricSchema = z.object({ value: z.number(), lower_value: z.number().optional(), upper_value: z.number().optional() });
const bmfSchema = z.record(z.string().min(1), z.record(z.string().min(1), metricSchema));

export type BmfDocument = z.output<typeof bmfSchema>;

/** Bencher's built-in measures: unit and which way is better. Other measures keep no unit and no direction. */
const builtInMeasures: Record<string, { unit: string; direction: MetricDirection }> = {
  latency: { unit: 'nanoseconds', direction: 'lower' },
  throughput: { unit: 'operations / second', direction: 'higher' },
  'build-time': { unit: 'seconds', direction: 'lower' },
  'file-size': { unit: 'bytes', direction: 'lower' },
};

/** Whether parsed JSON has BMF's two levels of objects with a numeric `value` at the bottom. */
export function looksLikeBmf(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const first = Object.values(json)[0] as Record<string, unknown> | undefined;
  const measure = first && typeof first === 'object' ? (Object.values(first)[0] as { value?: unknown } | undefined) : undefined;
  return typeof measure?.value === 'number';
}

export interface BmfRunFacts {
  commit: ImportedCommit;
  machine: string;
}

export function parseBmf(json: unknown, file: string, facts: BmfRunFacts): ImportedRun {
  const document = validate(bmfSchema, json, file);
  const values = Object.entries(document).flatMap(([workload, measures]) =>
    Object.entries(measures).map(([metric, { value }]) => {
      const known = builtInMeasures[metric];
      return { workload, workloadVersion: '', metric, value, unit: known?.unit ?? '', direction: known?.direction ?? ('none' as const) };
    }),
  );
  return { machine: facts.machine, machineFacts: {}, environmentName: 'default', environmentFacts: {}, commit: facts.commit, values, missing: 0 };
}

/**
 * A BMF document of one night: each series' median of that night's repeats, with their lowest and
 * highest as the bounds. A benchmark is named by its workload; series of one workload and
 * measure on several machines or environments are told apart by where they ran.
 */
export function toBmf(series: readonly Series[], night: string): BmfDocument {
  const points = series.flatMap((s) => s.points.filter((p) => p.night === night && p.values.length > 0).map((p) => ({ identity: s.identity, values: p.values })));
  const perName = new Map<string, number>();
  for (const { identity } of points) perName.set(`${identity.workload}\0${identity.metric}`, (perName.get(`${identity.workload}\0${identity.metric}`) ?? 0) + 1);
  const document: BmfDocument = {};
  for (const { identity, values } of points) {
    const shared = perName.get(`${identity.workload}\0${identity.metric}`)! > 1;
    const name = shared ? `${identity.workload} [${[identity.clusterShape, identity.environmentName].join(' ')}]` : identity.workload;
    (document[name] ??= {})[identity.metric] = { value: medianOf(values), lower_value: Math.min(...values), upper_value: Math.max(...values) };
  }
  return document;
}
