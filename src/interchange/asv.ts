/**
 * airspeed velocity (asv) results, read into the neutral shape. Pure: the folder walk is in
 * `read-source.ts`. The formats, from asv's own `asv/results.py` (api_version 2, and
 * `update_to_2` for version 1) and `asv/benchmarks.py`:
 * - `results/benchmarks.json`: benchmark name -> {type, unit, params, param_names, version};
 * - `results/<machine>/machine.json`: {machine, arch, cpu, num_cpu, os, ram, version};
 * - `results/<machine>/<hash>-<env>.json`: {commit_hash, date (commit time, ms), env_name, params,
 *   python, requirements, env_vars, version}; version 2 has `result_columns` (result, params,
 *   version, started_at, duration, stats_*, samples, profile) and `results`: name -> the row of
 *   those columns; version 1 has `results`: name -> a number or {result, params, stats, samples}
 *   and `benchmark_version`: name -> version.
 * A parameterised benchmark has one result per combination of its parameters (the cartesian
 * product of `params`, in order); each becomes a workload named as asv shows it, `name(a, b)`.
 *
 * @module
 */
import { z } from 'zod';
import { configError } from '../errors.js';
import { validate } from '../validation.js';
import type { MetricDirection } from '../direction.js';
import type { ImportedRun, ImportedValue } from './types.js';

/** What benchmarks.json says of one benchmark. */
export interface AsvBenchmark {
  type: string;
  unit: string;
}

export type AsvBenchmarks = ReadonlyMap<string, AsvBenchmark>;

export interface AsvMachine {
  name: string;
  facts: Record<string, unknown>;
}

const benchmarkSchema = z.object({ type: z.string(), unit: z.string().optional() });

/** benchmarks.json; its `version` key is the file's own version, not a benchmark. */
export function parseAsvBenchmarks(json: unknown, file: string): AsvBenchmarks {
  const entries = validate(z.record(z.string(), z.unknown()), json, file);
  const benchmarks = new Map<string, AsvBenchmark>();
  for (const [name, entry] of Object.entries(entries)) {
    if (name === 'version') continue;
    const { type, unit } = validate(benchmarkSchema, entry, `${file}: ${name}`);
    benchmarks.set(name, { type, unit: unit ?? defaultUnit(type) });
  }
  return benchmarks;
}

const machineSchema = z.looseObject({ machine: z.string().min(1) });

export function parseAsvMachine(json: unknown, file: string): AsvMachine {
  const { machine, version: _fileVersion, ...facts } = validate(machineSchema, json, file);
  return { name: machine, facts };
}

const resultsSchema = z.object({
  commit_hash: z.string().regex(/^[0-9a-f]{7,64}$/i, 'expected a commit hash'),
  date: z.number(),
  env_name: z.string().optional(),
  python: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  requirements: z.record(z.string(), z.unknown()).default({}),
  env_vars: z.record(z.string(), z.unknown()).default({}),
  version: z.union([z.literal(1), z.literal(2)], { error: 'expected results version 1 or 2 (asv/results.py api_version)' }),
  result_columns: z.array(z.string()).optional(),
  // Checked, not copied: z.record rebuilt every file's results key by key, most of the
  // validation's cost, and each entry is checked where it is read (version2Entries).
  results: z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected an object of results'),
  benchmark_version: z.record(z.string(), z.unknown()).optional(),
});

/** One benchmark's entry in a results file, whatever the version: values in parameter order. */
interface AsvEntry {
  result: unknown;
  params: unknown;
  version: unknown;
}

/** The asv types that measure a cost (lower is better); `track` values have no known direction. */
const costTypes = new Set(['time', 'memory', 'peakmemory']);

function defaultUnit(type: string): string {
  return type === 'time' ? 'seconds' : type === 'memory' || type === 'peakmemory' ? 'bytes' : 'unit';
}

/** A benchmark missing from benchmarks.json (since removed) still has its type in its name. */
function benchmarkOf(name: string, benchmarks: AsvBenchmarks): AsvBenchmark {
  const known = benchmarks.get(name);
  if (known) return known;
  const method = name.slice(name.lastIndexOf('.') + 1);
  const type = method.startsWith('time_') ? 'time' : method.startsWith('peakmem_') ? 'peakmemory' : method.startsWith('mem_') ? 'memory' : 'track';
  return { type, unit: defaultUnit(type) };
}

/**
 * One results file as a run of the history. `file` names it in errors; `machine` is its
 * folder's machine.json; `benchmarks` is results/benchmarks.json.
 */
export function parseAsvResults(json: unknown, file: string, machine: AsvMachine, benchmarks: AsvBenchmarks): ImportedRun {
  const data = validate(resultsSchema, json, file);
  const entries = data.version === 2 ? version2Entries(data, file) : version1Entries(data);
  const values: ImportedValue[] = [];
  let missing = 0;
  for (const [name, entry] of entries) {
    const { type, unit } = benchmarkOf(name, benchmarks);
    const direction: MetricDirection = costTypes.has(type) ? 'lower' : 'none';
    const workloadVersion = typeof entry.version === 'string' ? entry.version : '';
    const results = Array.isArray(entry.result) ? entry.result : [entry.result];
    const names = workloadNames(name, entry.params, results.length, file);
    results.forEach((value, i) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return void missing++;
      values.push({ workload: names[i]!, workloadVersion, metric: type, value, unit, direction });
    });
  }
  const environmentName = data.env_name ?? `py${data.python ?? ''}`;
  const { machine: machineParams, environment: environmentParams } = splitParams(data.params);
  return {
    machine: machine.name,
    // The run's own record of the machine (its kernel then) over machine.json's (its latest).
    machineFacts: { ...machine.facts, ...machineParams },
    environmentName,
    environmentFacts: { python: data.python, requirements: data.requirements, envVars: data.env_vars, params: environmentParams },
    commit: { sha: data.commit_hash, date: new Date(data.date).toISOString() },
    values,
    missing,
  };
}

/**
 * The fields of machine.json, which asv also copies into every results file's `params`: they
 * describe the machine (already the series' cluster shape, `asv:<machine>`), not the environment.
 * Kept in the environment, a kernel patch or a RAM figure reported a few kB apart made a new
 * environment of the same machine: MetPy's 59 runs fell into 5 of them (7 to 23 nights each),
 * each judged as a new series, and no change across their boundaries was ever compared.
 */
const machineParamNames = new Set(['machine', 'arch', 'cpu', 'num_cpu', 'os', 'ram']);

function splitParams(params: Record<string, unknown>): { machine: Record<string, unknown>; environment: Record<string, unknown> } {
  const entries = Object.entries(params);
  return {
    machine: Object.fromEntries(entries.filter(([name]) => machineParamNames.has(name))),
    environment: Object.fromEntries(entries.filter(([name]) => !machineParamNames.has(name))),
  };
}

function version2Entries(data: z.output<typeof resultsSchema>, file: string): [string, AsvEntry][] {
  const columns = data.result_columns;
  if (!columns) throw validationError(file, 'result_columns', 'missing (required by results version 2)');
  const column = (name: string) => columns.indexOf(name);
  const [result, params, version] = [column('result'), column('params'), column('version')];
  if (result < 0) throw validationError(file, 'result_columns', 'has no "result" column');
  return Object.entries(data.results).map(([name, row]) => {
    if (!Array.isArray(row)) throw validationError(file, `results.${name}`, 'expected an array of the result_columns');
    // asv drops trailing null columns when it saves, so a short row is valid.
    return [name, { result: row[result] ?? null, params: params < 0 ? [] : row[params] ?? [], version: version < 0 ? null : row[version] }];
  });
}

function version1Entries(data: z.output<typeof resultsSchema>): [string, AsvEntry][] {
  return Object.entries(data.results).map(([name, value]) => {
    const version = data.benchmark_version?.[name] ?? null;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entry = value as { result?: unknown; params?: unknown };
      return [name, { result: entry.result ?? null, params: entry.params ?? [], version }];
    }
    return [name, { result: value, params: [], version }];
  });
}

/** asv's own display of a parameter combination: `name(a, b)`, the product of `params` in order. */
function workloadNames(name: string, params: unknown, count: number, file: string): string[] {
  if (!Array.isArray(params) || params.length === 0) {
    if (count !== 1) throw validationError(file, `results.${name}`, `${count} results without params`);
    return [name];
  }
  if (!params.every((values) => Array.isArray(values))) throw validationError(file, `results.${name}.params`, 'expected a list of value lists');
  let combinations: string[][] = [[]];
  for (const values of params as unknown[][]) combinations = combinations.flatMap((prefix) => values.map((v) => [...prefix, String(v)]));
  if (combinations.length !== count) throw validationError(file, `results.${name}`, `${count} results for ${combinations.length} parameter combinations`);
  return combinations.map((combination) => `${name}(${combination.join(', ')})`);
}

/** The same one line as `validate`'s: which file, which field, what is wrong. */
function validationError(file: string, key: string, what: string): Error {
  return configError(`${file}: ${key}: ${what}`);
}
