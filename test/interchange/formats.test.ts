import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBmf, toBmf } from '../../src/interchange/bmf.js';
import { toCsv } from '../../src/interchange/csv.js';
import { parseToolJson } from '../../src/interchange/tool-json.js';
import { dataJsJson, directionOfTool, parseGithubActionBenchmark } from '../../src/interchange/github-action-benchmark.js';
import type { Series } from '../../src/detect/series.js';
import type { ResultRow } from '../../src/history/types.js';
import { repoRoot } from '../helpers/cli.js';

const fixture = (name: string) => readFileSync(path.join(repoRoot, 'test/fixtures/interchange', name), 'utf8');

describe("github-action-benchmark's data.js", () => {
  const runs = parseGithubActionBenchmark(JSON.parse(dataJsJson(fixture('gab-data.js'))), 'data.js', 'ci');

  it('is one run per entry of each suite, at the commit with its time, subject and author', () => {
    expect(runs.map((r) => [r.suite, r.commit.sha.slice(0, 4), r.commit.date])).toEqual([
      ['Rust Benchmark', '1111', '2024-03-04T10:00:00.000Z'],
      ['Rust Benchmark', '2222', '2024-03-05T09:30:00.000Z'],
      ['Python Benchmark', '2222', '2024-03-05T09:30:00.000Z'],
    ]);
    expect(runs[0]!.commit).toMatchObject({ subject: 'Speed up the tokenizer', authorName: 'Ada Lovelace', authorEmail: 'ada@example.com' });
    expect(runs[0]!).toMatchObject({ machine: 'ci', environmentName: 'cargo' });
  });

  it("keeps each value with its unit, better smaller or bigger as the action's tool says", () => {
    expect(runs[1]!.values).toEqual([
      { workload: 'bench_tokenize', workloadVersion: '', metric: 'value', value: 1498, unit: 'ns/iter', direction: 'lower' },
      { workload: 'bench_parse', workloadVersion: '', metric: 'value', value: 131000, unit: 'ns/iter', direction: 'lower' },
    ]);
    expect(runs[2]!.values).toEqual([{ workload: 'tests/bench.py::test_roundtrip', workloadVersion: '', metric: 'value', value: 5230.4, unit: 'iter/sec', direction: 'higher' }]);
    expect(directionOfTool('customBiggerIsBetter')).toBe('higher');
    expect(directionOfTool('someday-a-new-tool')).toBe('none');
  });

  it('refuses an entry without a commit id, naming the field', () => {
    const data = { entries: { s: [{ commit: { message: 'x' }, date: 1, tool: 'go', benches: [] }] } };
    expect(() => parseGithubActionBenchmark(data, 'data.js', 'ci')).toThrow(/^data\.js: entries\.s\.0\.commit\.id: /);
  });
});

describe('Bencher Metric Format', () => {
  const commit = { sha: 'abcdef0', date: '2024-03-05T12:00:00.000Z' };

  it('reads every measure of every benchmark, with the built-in measures\' units and directions', () => {
    const run = parseBmf(JSON.parse(fixture('bmf.json')), 'bmf.json', { commit, machine: 'ci' });
    expect(run.values).toEqual([
      { workload: 'parser::tokenize', workloadVersion: '', metric: 'latency', value: 1520, unit: 'nanoseconds', direction: 'lower' },
      { workload: 'parser::tokenize', workloadVersion: '', metric: 'throughput', value: 657.9, unit: 'operations / second', direction: 'higher' },
      { workload: '/bin/sh -c ./build.sh', workloadVersion: '', metric: 'build-time', value: 87, unit: 'seconds', direction: 'lower' },
      { workload: 'parser-binary', workloadVersion: '', metric: 'file-size', value: 4200000, unit: 'bytes', direction: 'lower' },
      { workload: 'parser::custom', workloadVersion: '', metric: 'allocations', value: 12, unit: '', direction: 'none' },
    ]);
    expect(run.commit).toEqual(commit);
  });

  it('refuses a measure without a numeric value, naming the benchmark and measure', () => {
    expect(() => parseBmf({ b: { latency: { value: 'fast' } } }, 'r.json', { commit, machine: 'ci' })).toThrow(/^r\.json: b\.latency\.value: /);
  });

  const identity = { suite: 's', workloadVersion: '', metric: 'latency', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB' };
  const point = (night: string, values: number[]) => ({ night, runId: 'r', commits: {}, status: 'ok' as const, values, okRepeats: values.length, failedRepeats: 0, disturbedRepeats: 0 });

  it("writes one night: each series' median with its lowest and highest repeat, machines told apart only where names collide", () => {
    const series: Series[] = [
      { key: 'a', identity: { ...identity, workload: 'tokenize' }, unit: 'ns', points: [point('2024-03-04', [1, 2, 3]), point('2024-03-05', [10, 30, 20, 40])] },
      { key: 'b', identity: { ...identity, workload: 'parse' }, unit: 'ns', points: [point('2024-03-05', [7])] },
      { key: 'c', identity: { ...identity, workload: 'parse', clusterShape: 'ec2:4x2' }, unit: 'ns', points: [point('2024-03-05', [9])] },
    ];
    expect(toBmf(series, '2024-03-05')).toEqual({
      tokenize: { latency: { value: 25, lower_value: 10, upper_value: 40 } },
      'parse [local:2x1:2GiB default]': { latency: { value: 7, lower_value: 7, upper_value: 7 } },
      'parse [ec2:4x2 default]': { latency: { value: 9, lower_value: 9, upper_value: 9 } },
    });
  });
});

describe('CSV', () => {
  it('writes a row per value, quoting fields with commas or quotes, and skips failed repeats', () => {
    const base: ResultRow = {
      runId: 'r1', kind: 'nightly', suite: 's', night: '2024-03-05', startedAt: '2024-03-05T02:17:00Z', environmentName: 'default', environmentFingerprint: 'f', provider: 'local',
      clusterShape: 'local:2x1:2GiB', workload: 'parse(10, "x")', workloadVersion: '', repeat: 1, status: 'ok', metric: 'wall_time', value: 1.5, unit: 'seconds', error: null, disturbance: null,
      commits: { dask: 'abc', distributed: 'def' },
    };
    const csv = toCsv([base, { ...base, repeat: 2, status: 'failed', metric: null, value: null, unit: null }], () => 'lower');
    expect(csv.split('\r\n')).toEqual([
      'suite,night,started_at,commits,provider,cluster_shape,instance_type,environment,workload,workload_version,metric,repeat,status,value,unit,direction',
      's,2024-03-05,2024-03-05T02:17:00Z,dask=abc distributed=def,local,local:2x1:2GiB,,default,"parse(10, ""x"")",,wall_time,1,ok,1.5,seconds,lower',
      '',
    ]);
  });
});

describe("tools' JSON", () => {
  it("reads Python's NaN and Infinity as missing values, leaving names that contain them alone", () => {
    expect(parseToolJson('{"test_NaN": [NaN, 1.5, -Infinity], "b": {"x": Infinity}}', 'r.json')).toEqual({ test_NaN: [null, 1.5, null], b: { x: null } });
  });

  it('names the file when it is not JSON at all', () => {
    expect(() => parseToolJson('{"a": ', 'results/m/x.json')).toThrow(/^results\/m\/x\.json: not valid JSON: /);
  });
});
