/**
 * github-action-benchmark's history, read into the neutral shape. Pure. The format, from the
 * action's `src/write.ts` (`DataJson`, `SCRIPT_PREFIX`) and `src/extract.ts` (`Benchmark`,
 * `BenchmarkResult`): `data.js` is `window.BENCHMARK_DATA = ` followed by JSON (the
 * `external-data-json-path` file is the same JSON alone): {lastUpdate, repoUrl, entries: suite
 * name -> [{commit: {id, message, timestamp, author: {name, email, username}, url}, date, tool,
 * benches: [{name, value, unit, range?, extra?}]}]}. Each entry is a run of its suite; which way
 * is better follows the action's `biggerIsBetter(tool)`.
 *
 * @module
 */
import { z } from 'zod';
import { validate } from '../validation.js';
import type { MetricDirection } from '../direction.js';
import type { ImportedRun } from './types.js';

/** What the action writes before the JSON in data.js. */
export const dataJsPrefix = 'window.BENCHMARK_DATA = ';

/** The action's tools whose values are better bigger (throughput); the other known tools measure time. */
const biggerIsBetterTools = new Set(['benchmarkjs', 'pytest', 'customBiggerIsBetter']);
const smallerIsBetterTools = new Set(['cargo', 'go', 'benchmarkluau', 'googlecpp', 'catch2', 'julia', 'jmh', 'benchmarkdotnet', 'customSmallerIsBetter']);

const benchmarkSchema = z.object({
  commit: z.object({
    id: z.string().min(1),
    message: z.string().default(''),
    timestamp: z.string().optional(),
    author: z.object({ name: z.string().optional(), email: z.string().optional(), username: z.string().optional() }).partial().default({}),
  }),
  date: z.number(),
  tool: z.string(),
  benches: z.array(z.object({ name: z.coerce.string(), value: z.coerce.number(), unit: z.coerce.string() })),
});

const dataSchema = z.object({ entries: z.record(z.string(), z.array(benchmarkSchema)) });

/** The JSON of data.js or of the action's external JSON file. */
export function dataJsJson(text: string): string {
  const trimmed = text.trimStart();
  return trimmed.startsWith(dataJsPrefix) ? trimmed.slice(dataJsPrefix.length).replace(/;\s*$/, '') : trimmed;
}

/** Whether parsed JSON has the action's shape (checked before a full parse names its errors). */
export function looksLikeGithubActionBenchmark(json: unknown): boolean {
  return typeof json === 'object' && json !== null && typeof (json as { entries?: unknown }).entries === 'object';
}

export function directionOfTool(tool: string): MetricDirection {
  return biggerIsBetterTools.has(tool) ? 'higher' : smallerIsBetterTools.has(tool) ? 'lower' : 'none';
}

/** Every entry of every suite as a run on `machine` (the action records no machine). */
export function parseGithubActionBenchmark(json: unknown, file: string, machine: string): ImportedRun[] {
  const data = validate(dataSchema, json, file);
  return Object.entries(data.entries).flatMap(([suite, benchmarks]) =>
    benchmarks.map((b): ImportedRun => {
      const direction = directionOfTool(b.tool);
      const values = b.benches.filter((bench) => Number.isFinite(bench.value));
      return {
        suite,
        machine,
        machineFacts: {},
        environmentName: b.tool,
        environmentFacts: { tool: b.tool },
        // The commit's own time when the action had it; else when the benchmark ran.
        commit: {
          sha: b.commit.id,
          date: new Date(b.commit.timestamp ?? b.date).toISOString(),
          subject: b.commit.message.split('\n', 1)[0],
          authorName: b.commit.author.name ?? b.commit.author.username,
          authorEmail: b.commit.author.email,
        },
        values: values.map((bench) => ({ workload: bench.name, workloadVersion: '', metric: 'value', value: bench.value, unit: bench.unit, direction })),
        missing: b.benches.length - values.length,
      };
    }),
  );
}
