/**
 * Reading another tool's history from disk: which format a path holds (or the one asked for),
 * and its runs one file at a time, so a large asv folder is never held in memory at once. The
 * parsing itself is the formats' pure modules; this module only finds and reads the files.
 * A registry, not a switch: a new format is one entry here and one module beside it.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { configError } from '../errors.js';
import { parseAsvBenchmarks, parseAsvMachine, parseAsvResults } from './asv.js';
import { looksLikeBmf, parseBmf } from './bmf.js';
import { dataJsJson, looksLikeGithubActionBenchmark, parseGithubActionBenchmark } from './github-action-benchmark.js';
import { parseToolJson } from './tool-json.js';
import type { ImportedCommit, ImportedRun, InterchangeFormat } from './types.js';

export interface ReadOptions {
  /** The machine of formats that record none (github-action-benchmark, BMF). */
  machine: string;
  /** BMF names no commit: the one its values measured. */
  commit?: ImportedCommit;
}

/** A source's runs, file by file: `files` is known before reading, for progress. */
export interface SourceReading {
  format: InterchangeFormat;
  files: number;
  runs(): Iterable<{ file: string; runs: ImportedRun[] }>;
}

interface FormatReader {
  summary: string;
  /** Whether the path holds this format; `json` is a file's parsed content (undefined for a folder). */
  detects(source: string, json: unknown): boolean;
  read(source: string, json: unknown, options: ReadOptions): SourceReading;
}

export const formatReaders: Record<InterchangeFormat, FormatReader> = {
  asv: {
    summary: 'an asv results folder (results/benchmarks.json and results/<machine>/<hash>-<env>.json), or the project holding it',
    detects: (source, json) => json === undefined && asvResultsFolder(source) !== undefined,
    read: (source) => readAsvFolder(source),
  },
  'github-action-benchmark': {
    summary: "github-action-benchmark's data.js (window.BENCHMARK_DATA = ...) or its JSON",
    detects: (_source, json) => looksLikeGithubActionBenchmark(json),
    read: (source, json, options) => oneFile('github-action-benchmark', source, () => parseGithubActionBenchmark(json, source, options.machine)),
  },
  bmf: {
    summary: 'a Bencher Metric Format (BMF) JSON file of one run (needs --commit)',
    detects: (_source, json) => looksLikeBmf(json),
    read: (source, json, options) => {
      if (!options.commit) throw configError(`${source}: a BMF file names no commit: give the commit it measured with --commit SHA (and --date)`);
      const commit = options.commit;
      return oneFile('bmf', source, () => [parseBmf(json, source, { commit, machine: options.machine })]);
    },
  },
};

export const formatNames = Object.keys(formatReaders) as InterchangeFormat[];

/** Opens a source in `format`, or in the format it is detected to hold. */
export function readSource(source: string, format: InterchangeFormat | undefined, options: ReadOptions): SourceReading {
  if (!existsSync(source)) throw configError(`${source}: no such file or folder`);
  const json = statSync(source).isDirectory() ? undefined : parseToolJson(dataJsJson(readFileSync(source, 'utf8')), source);
  const detected = format ?? formatNames.find((name) => formatReaders[name].detects(source, json));
  if (!detected) throw configError(`${source}: not a format nightbench imports (${formatNames.join(', ')}); give --format to say which it is`);
  return formatReaders[detected].read(source, json, options);
}

function oneFile(format: InterchangeFormat, file: string, parse: () => ImportedRun[]): SourceReading {
  return { format, files: 1, runs: () => [{ file, runs: parse() }] };
}

/** The results folder: the path itself, or results/ or .asv/results/ inside a project. */
function asvResultsFolder(source: string): string | undefined {
  return [source, path.join(source, 'results'), path.join(source, '.asv', 'results')].find((dir) => existsSync(path.join(dir, 'benchmarks.json')));
}

function readJson(file: string): unknown {
  return parseToolJson(readFileSync(file, 'utf8'), file);
}

function readAsvFolder(source: string): SourceReading {
  const folder = asvResultsFolder(source);
  if (!folder) throw configError(`${source}: no asv results here (looked for benchmarks.json in it, results/ and .asv/results/)`);
  const benchmarks = parseAsvBenchmarks(readJson(path.join(folder, 'benchmarks.json')), path.join(folder, 'benchmarks.json'));
  // As asv does (results.iter_results_paths), only machine folders with a machine.json hold results.
  const machines = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(folder, entry.name, 'machine.json')))
    .map((entry) => path.join(folder, entry.name))
    .sort();
  const files = machines.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.json') && name !== 'machine.json')
      .sort()
      .map((name) => ({ dir, file: path.join(dir, name) })),
  );
  return {
    format: 'asv',
    files: files.length,
    *runs() {
      let machineDir = '';
      let machine = { name: '', facts: {} as Record<string, unknown> };
      for (const { dir, file } of files) {
        if (dir !== machineDir) {
          machineDir = dir;
          machine = parseAsvMachine(readJson(path.join(dir, 'machine.json')), path.join(dir, 'machine.json'));
        }
        yield { file, runs: [parseAsvResults(readJson(file), file, machine, benchmarks)] };
      }
    },
  };
}
