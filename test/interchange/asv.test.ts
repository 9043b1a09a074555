import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAsvBenchmarks, parseAsvMachine, parseAsvResults } from '../../src/interchange/asv.js';
import { repoRoot } from '../helpers/cli.js';

const results = path.join(repoRoot, 'test/fixtures/interchange/asv-project/results');
const json = (relative: string) => JSON.parse(readFileSync(path.join(results, relative), 'utf8')) as unknown;
const benchmarks = parseAsvBenchmarks(json('benchmarks.json'), 'benchmarks.json');
const linux = parseAsvMachine(json('linux-box/machine.json'), 'machine.json');
const mac = parseAsvMachine(json('old-mac/machine.json'), 'machine.json');

describe('asv results', () => {
  it('reads a version 2 file: one value per benchmark and parameter combination, with type, unit, version and direction', () => {
    const run = parseAsvResults(json('linux-box/1a2b3c4d-virtualenv-py3.11.json'), 'f.json', linux, benchmarks);
    expect(run.commit).toEqual({ sha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d', date: '2024-03-04T10:00:00.000Z' });
    expect(run.environmentName).toBe('virtualenv-py3.11');
    expect(run.machine).toBe('linux-box');
    expect(run.machineFacts).toMatchObject({ cpu: 'AMD EPYC 7763 64-Core Processor', num_cpu: '4' });
    expect(run.values).toEqual([
      { workload: 'bench_orm.QuerySet.time_filter', workloadVersion: 'aaa111', metric: 'time', value: 0.0125, unit: 'seconds', direction: 'lower' },
      { workload: "bench_orm.QuerySet.time_bulk_create(10, 'sqlite')", workloadVersion: 'bbb222', metric: 'time', value: 0.002, unit: 'seconds', direction: 'lower' },
      { workload: "bench_orm.QuerySet.time_bulk_create(100, 'sqlite')", workloadVersion: 'bbb222', metric: 'time', value: 0.0201, unit: 'seconds', direction: 'lower' },
      { workload: 'bench_orm.QuerySet.peakmem_load', workloadVersion: 'ccc333', metric: 'peakmemory', value: 52428800, unit: 'bytes', direction: 'lower' },
      { workload: 'bench_orm.track_queries', workloadVersion: 'ddd444', metric: 'track', value: 12, unit: 'queries', direction: 'none' },
    ]);
    expect(run.missing).toBe(0);
  });

  it('keeps the machine out of the environment: a kernel patch between two runs is the same environment, a new requirement is not', () => {
    const file = json('linux-box/1a2b3c4d-virtualenv-py3.11.json') as { params: Record<string, unknown>; requirements: Record<string, unknown> };
    const withParams = (params: Record<string, unknown>, requirements = file.requirements) => parseAsvResults({ ...file, params: { ...file.params, ...params }, requirements }, 'f.json', linux, benchmarks);
    const before = withParams({ os: 'Linux 4.18.0-553.56.1.el8_10.x86_64', ram: '395591804' });
    const patched = withParams({ os: 'Linux 4.18.0-553.66.1.el8_10.x86_64', ram: '395591796' });
    expect(patched.environmentFacts).toEqual(before.environmentFacts);
    // Each run keeps what it recorded of the machine.
    expect(patched.machineFacts).toMatchObject({ os: 'Linux 4.18.0-553.66.1.el8_10.x86_64', ram: '395591796', cpu: 'AMD EPYC 7763 64-Core Processor' });
    const upgraded = withParams({ numpy: '2.0' }, { ...file.requirements, numpy: '2.0' });
    expect(upgraded.environmentFacts).not.toEqual(before.environmentFacts);
  });

  it('leaves out results without a value (a failed benchmark, a failed parameter combination) and counts them', () => {
    const second = parseAsvResults(json('linux-box/2b3c4d5e-virtualenv-py3.11.json'), 'f.json', linux, benchmarks);
    expect(second.values.map((v) => v.workload)).not.toContain("bench_orm.QuerySet.time_bulk_create(100, 'sqlite')");
    expect(second.missing).toBe(1);
    const third = parseAsvResults(json('linux-box/3c4d5e6f-virtualenv-py3.11.json'), 'f.json', linux, benchmarks);
    expect(third.values.map((v) => v.workload)).not.toContain('bench_orm.QuerySet.peakmem_load');
    expect(third.missing).toBe(1);
  });

  it('reads a version 1 file: plain numbers, {result, params}, benchmark_version, and a benchmark since removed typed by its name', () => {
    const run = parseAsvResults(json('old-mac/1a2b3c4d-py2.7-numpy1.8.json'), 'f.json', mac, benchmarks);
    expect(run.environmentName).toBe('py2.7-numpy1.8');
    expect(run.values).toEqual([
      { workload: 'bench_orm.QuerySet.time_filter', workloadVersion: 'aaa111', metric: 'time', value: 0.0412, unit: 'seconds', direction: 'lower' },
      { workload: "bench_orm.QuerySet.time_bulk_create(10, 'sqlite')", workloadVersion: '', metric: 'time', value: 0.007, unit: 'seconds', direction: 'lower' },
      { workload: "bench_orm.QuerySet.time_bulk_create(100, 'sqlite')", workloadVersion: '', metric: 'time', value: 0.071, unit: 'seconds', direction: 'lower' },
      { workload: 'bench_orm.time_removed_since', workloadVersion: '', metric: 'time', value: 0.5, unit: 'seconds', direction: 'lower' },
    ]);
  });

  it.each([
    { what: 'no commit hash', change: (d: Record<string, unknown>) => delete d['commit_hash'], error: /^bad\.json: commit_hash: / },
    { what: 'a date that is not a number', change: (d: Record<string, unknown>) => (d['date'] = '2024-03-04'), error: /^bad\.json: date: / },
    { what: 'an unknown version', change: (d: Record<string, unknown>) => (d['version'] = 3), error: /^bad\.json: version: expected results version 1 or 2/ },
    { what: 'no result_columns in version 2', change: (d: Record<string, unknown>) => delete d['result_columns'], error: /^bad\.json: result_columns: missing/ },
    {
      what: 'results that do not match the parameters',
      change: (d: Record<string, unknown>) => ((d['results'] as Record<string, unknown[]>)['bench_orm.QuerySet.time_bulk_create']![0] = [1, 2, 3]),
      error: /^bad\.json: results\.bench_orm\.QuerySet\.time_bulk_create: 3 results for 2 parameter combinations/,
    },
  ])('refuses a file with $what in one line naming the file and the field', ({ change, error }) => {
    const data = json('linux-box/1a2b3c4d-virtualenv-py3.11.json') as Record<string, unknown>;
    change(data);
    expect(() => parseAsvResults(data, 'bad.json', linux, benchmarks)).toThrow(error);
  });

  it('refuses a machine.json without a machine name', () => {
    expect(() => parseAsvMachine({ arch: 'x86_64' }, 'm/machine.json')).toThrow(/^m\/machine\.json: machine: /);
  });
});
