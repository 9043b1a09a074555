import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonFile, validate } from '../validation.js';
import { runCommand } from '../process/processes.js';
import { fillTemplate } from '../cluster/types.js';
import { firstLine, lastLines, suiteError } from '../errors.js';
import { suiteFileSchema, workloadListingSchema, type SuiteFile, type Workload, type MetricDirection } from './schema.js';

export const workloadsDir = fileURLToPath(new URL('../../workloads/', import.meta.url));

export interface Suite {
  file: SuiteFile;
  dir: string;
  /** Placeholder values every command of the suite may use. */
  placeholders: Record<string, string>;
}

/** The runner measures these from outside, for every workload of every suite. */
export const runnerMetrics: { name: string; unit: string; direction: MetricDirection }[] = [
  { name: 'wall_time', unit: 's', direction: 'lower' },
  { name: 'cpu_time', unit: 's', direction: 'lower' },
  { name: 'peak_memory', unit: 'bytes', direction: 'lower' },
  { name: 'average_memory', unit: 'bytes', direction: 'lower' },
];

/** A suite by name (a folder of workloads/) or by path to a folder holding suite.json. */
export function loadSuite(nameOrPath: string, options: { baseDir?: string; python?: string } = {}): Suite {
  const candidates = [path.resolve(options.baseDir ?? process.cwd(), nameOrPath), path.join(workloadsDir, nameOrPath)];
  const dir = candidates.find((d) => existsSync(path.join(d, 'suite.json')));
  if (!dir) throw suiteError(`unknown suite "${nameOrPath}": no suite.json in ${candidates.join(' or ')}`);
  const file = validate(suiteFileSchema, parseJsonFile(path.join(dir, 'suite.json')), path.join(dir, 'suite.json'));
  return { file, dir, placeholders: { python: options.python ?? file.python ?? 'python3', suite_dir: dir } };
}

/** Asks the suite which workloads it has, through its `list` command. */
export async function listWorkloads(suite: Suite, env: Record<string, string>): Promise<Workload[]> {
  const result = await runCommand({ argv: fillTemplate(suite.file.list, suite.placeholders), env, cwd: suite.dir, timeoutMs: 120_000 });
  if (result.exitCode !== 0) {
    throw suiteError(`suite ${suite.file.name}: listing its workloads failed (exit ${result.exitCode ?? result.signal}): ${lastLines(result.stderrTail)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch (error) {
    throw suiteError(`suite ${suite.file.name}: its list command printed no valid JSON: ${firstLine(error)}`);
  }
  return validate(workloadListingSchema, parsed, `suite ${suite.file.name} listing`).workloads;
}

/** The workloads named in `wanted` (all when empty); an unknown name is an error that lists the known ones. */
export function selectWorkloads(all: Workload[], wanted: readonly string[], suiteName: string): Workload[] {
  if (wanted.length === 0) return all;
  const known = new Set(all.map((w) => w.name));
  const unknown = wanted.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw suiteError(`unknown workload${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} in suite ${suiteName}; known: ${[...known].join(', ')}`);
  }
  return all.filter((w) => wanted.includes(w.name));
}
