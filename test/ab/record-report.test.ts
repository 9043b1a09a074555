import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abSectionSchema } from '../../src/config/ab-section.js';
import { sitePages } from '../../src/ab/page.js';
import { renderMarkdown, renderTerminal } from '../../src/ab/render.js';
import { renderPullRequestComment } from '../../src/ab/pr-comment.js';
import { reportAb } from '../../src/ab/report.js';
import { readAbResult } from '../../src/ab/result-file.js';
import { abGroups } from '../../src/ab/schedule.js';
import { testKey } from '../../src/ab/analysis.js';
import type { AbTestRecord } from '../../src/ab/test-record.js';
import type { NewAbTest } from '../../src/history/ab-queries.js';
import { mergeShardFiles } from '../../src/history/files.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { abSitePageSchema } from '../../src/ab/site-page-schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const groups = abGroups(['small-chunks', 'big-chunks'], true);
const record: NewAbTest<AbTestRecord> = {
  id: '0f1e2d3c-0000-4000-8000-000000000001',
  createdAt: '2026-12-02T10:00:00.000Z',
  config: {
    ab: abSectionSchema.parse({ environments: ['a.json', 'b.json'], repeats: 6, resamples: 500 }),
    environments: [
      { name: 'small-chunks', description: 'array.chunk-size 1MiB', daskConfig: {}, variables: {} },
      { name: 'big-chunks', daskConfig: {}, variables: {} },
    ],
    groups,
    directions: { [testKey('tiny', 'chunked_sum', 'peak_memory')]: 'lower', [testKey('tiny', 'chunked_sum', 'wall_time')]: 'lower' },
    clusterShapes: ['local:2x1:1GiB'],
  },
  order: 'blocks',
  seed: 9,
  schedule: [],
};

/** peak memory: B about 30% above A; wall time: the same for all. */
const level = { A: 400, "A'": 401, B: 520 } as Record<string, number>;

function fill(history: HistoryStore, id = record.id): void {
  for (const group of groups) {
    const runId = `${id.slice(0, 8)}-run-${group.label === "A'" ? 'A2' : group.label}`;
    history.runs.beginRun({
      id: runId, kind: 'ab', suite: 'tiny', night: '2026-12-02', startedAt: record.createdAt, target: {}, environment: {}, environmentName: group.environment,
      environmentFingerprint: group.environment, provider: 'local', clusterShape: 'local:2x1:1GiB', commits: [], workers: 2, threadsPerWorker: 1,
      memoryPerWorker: 2 ** 30, scale: 1, harnessVersion: 'test', host: 'test', pid: 0, config: {},
    });
    history.ab.attachRunToAbTest(runId, id, group.label);
    for (let repeat = 1; repeat <= 6; repeat++) {
      const status = group.label === 'B' && repeat === 6 ? 'failed' : 'ok';
      history.runs.recordRepeat({
        runId, workload: 'chunked_sum', repeat, workloadVersion: '1', status, startedAt: record.createdAt, finishedAt: record.createdAt, samples: [],
        metrics: [
          { metric: 'peak_memory', unit: 'bytes', value: (level[group.label]! + repeat) * 2 ** 20 },
          { metric: 'wall_time', unit: 's', value: 3 + ((repeat * 7 + group.label.length) % 5) / 10 },
        ],
      });
    }
    history.runs.finishRun(runId, { status: 'complete', finishedAt: record.createdAt });
  }
}

describe('the A/B history and its report', () => {
  let dir: string;
  let history: HistoryStore;

  beforeEach(() => {
    dir = tempDir('nb-ab-store-');
    history = openHistory(path.join(dir, 'history.sqlite'));
    history.ab.createAbTest(record);
    fill(history);
    history.ab.finishAbTest(record.id, 'partial', '2026-12-02T11:00:00.000Z');
  });
  afterEach(() => history.close());

  it('stores a test with its order and seed, and finds it by a prefix of its id', () => {
    const stored = history.ab.abTest<AbTestRecord>('0f1e2d3c');
    expect(stored).toMatchObject({ id: record.id, status: 'partial', order: 'blocks', seed: 9, finishedAt: '2026-12-02T11:00:00.000Z' });
    expect(stored.config.groups).toEqual(groups);
    expect(history.ab.abTests<AbTestRecord>().map((t) => t.id)).toEqual([record.id]);
    expect(() => history.ab.abTest<AbTestRecord>('ffff')).toThrow(/no A\/B test "ffff"/);
  });

  it('refuses an ambiguous prefix', () => {
    history.ab.createAbTest({ ...record, id: '0f1e2d3c-0000-4000-8000-000000000002' });
    expect(() => history.ab.abTest<AbTestRecord>('0f1e')).toThrow(/ambiguous/);
    expect(history.ab.abTest<AbTestRecord>(record.id).id).toBe(record.id);
  });

  it('gives every row the group of its run, and re-analyses the same way every time', () => {
    const rows = history.ab.abTestRows(record.id);
    expect(new Set(rows.map((r) => r.group))).toEqual(new Set(['A', "A'", 'B']));
    const first = reportAb(history.ab.abTest<AbTestRecord>(record.id), rows);
    expect(reportAb(history.ab.abTest<AbTestRecord>(record.id), history.ab.abTestRows(record.id))).toEqual(first);
    const memory = first.analysis.tests.find((t) => t.metric === 'peak_memory')!;
    expect(memory).toMatchObject({ group: 'B', verdict: 'worse', baseline: { n: 6 }, candidate: { n: 5 } });
    expect(first.analysis.tests.find((t) => t.metric === 'wall_time')!.verdict).toBe('no clear change');
    expect(first.analysis.nullTests.every((t) => t.verdict === 'no clear change')).toBe(true);
    expect(first.analysis.notes).toContain('left out: 1 failed repeats of B chunked_sum');
  });

  it('renders a terminal table with the memory change first and a Markdown table for GitHub', () => {
    const { header, analysis } = reportAb(history.ab.abTest<AbTestRecord>(record.id), history.ab.abTestRows(record.id));
    const terminal = renderTerminal(header, analysis);
    const lines = terminal.split('\n');
    const headerAt = lines.findIndex((l) => l.startsWith('workload'));
    expect(lines[headerAt + 2]).toMatch(/^chunked_sum\s+peak_memory\s+B\s+404 MiB\s+523 MiB\s+1\.296 \[[\d.]+-[\d.]+\]\s+0\.9\d\d-1\.0\d\d\s+[\d.]+\s+worse$/);
    expect(lines[headerAt + 3]).toMatch(/^chunked_sum\s+wall_time\s+B .* no clear change$/);
    expect(terminal).toMatch(/A' = small-chunks \(second, independent set of the baseline\)/);
    expect(terminal).toMatch(/1 of 2 tests changed; A\/A: 0 of 2 differ/);
    const markdown = renderMarkdown(header, analysis);
    expect(markdown).toMatch(/^<!-- nightbench-ab: 0f1e2d3c-0000-4000-8000-000000000001 -->/);
    expect(markdown).toMatch(/\| chunked_sum \| peak_memory \| B \| 404 MiB \(404 MiB ± 1\.87 MiB\) \| 523 MiB .* \| 🔴 worse \|/);
    expect(markdown).toMatch(/> left out: 1 failed repeats of B chunked_sum/);
  });

  it('writes site pages the report\'s A/B seam accepts, one per candidate', () => {
    const report = reportAb(history.ab.abTest<AbTestRecord>(record.id), history.ab.abTestRows(record.id));
    const pages = sitePages(report, history.ab.abTest<AbTestRecord>(record.id).config.environments);
    expect(pages).toHaveLength(1);
    const page = abSitePageSchema.parse(pages[0]);
    expect(page).toMatchObject({ id: `${record.id}-B`, baseline: { name: 'small-chunks', description: 'array.chunk-size 1MiB' }, candidate: { name: 'big-chunks' } });
    const peak = page.comparisons.find((c) => c.metric === 'peak_memory')!;
    expect(peak.verdict).toBe('worse');
    // The band reads as changes, like the page's change and interval columns beside it.
    expect(peak.verdictFigures!.join(', ')).toMatch(/^A\/A band -\d\.\d% … \+\d\.\d%, raw p /);
    // A test without a ratio (nothing spilled in A, 1 GiB in B) is listed with its medians and verdict, not left off.
    const zero = { n: 6, mean: 0, median: 0, std: 0, cv: 0, min: 0, max: 0, mad: 0 };
    const spilled = { ...report.analysis.tests[0]!, metric: 'spilled_bytes', unit: 'bytes', baseline: zero, candidate: { ...zero, median: 2 ** 30, mean: 2 ** 30 }, ratio: undefined, band: undefined, p: 0.002, verdict: 'worse' as const };
    const withZero = abSitePageSchema.parse(sitePages({ ...report, analysis: { ...report.analysis, tests: [...report.analysis.tests, spilled] } }, history.ab.abTest<AbTestRecord>(record.id).config.environments)[0]!);
    expect(withZero.summary).toMatch(/^2 of 3 tests changed; /);
    expect(withZero.summary).not.toMatch(/Not listed/);
    const listed = withZero.comparisons.find((c) => c.metric === 'spilled_bytes')!;
    expect(listed).toMatchObject({ baselineMedian: 0, candidateMedian: 2 ** 30, verdict: 'worse', verdictFigures: ['no ratio, no A/A band', 'raw p 0.002'] });
    expect(listed.ratio).toBeUndefined();
  });

  it('tells a workload that failed in every repeat of B apart from the tests: one line with its error, first in every output', () => {
    const runOf = (label: string) => `${record.id.slice(0, 8)}-run-${label === "A'" ? 'A2' : label}`;
    for (const group of groups) {
      for (let repeat = 1; repeat <= 6; repeat++) {
        const failed = group.label === 'B';
        history.runs.recordRepeat({
          runId: runOf(group.label), workload: 'broken_sum', repeat, workloadVersion: '1', status: failed ? 'failed' : 'ok', startedAt: record.createdAt, finishedAt: record.createdAt, samples: [],
          ...(failed ? { error: 'exit 1\nTraceback (most recent call last):\nRuntimeError: this build breaks broken_sum', metrics: [] } : { metrics: [{ metric: 'wall_time', unit: 's', value: 2 + repeat / 10 }, { metric: 'peak_memory', unit: 'bytes', value: 300 * 2 ** 20 }] }),
        });
      }
    }
    const stored = history.ab.abTest<AbTestRecord>(record.id);
    const report = reportAb(stored, history.ab.abTestRows(record.id));
    expect(report.analysis.failures).toEqual([{ group: 'B', suite: 'tiny', workload: 'broken_sum', repeats: { failed: 6 }, error: 'RuntimeError: this build breaks broken_sum' }]);
    // Not one note per metric that has no values, nor its repeats among those left out.
    expect(report.analysis.notes.join('\n')).not.toMatch(/broken_sum/);
    const line = 'broken_sum in B (big-chunks): no repeat ran cleanly (6 failed; last error: RuntimeError: this build breaks broken_sum); not compared';
    const terminal = renderTerminal(report.header, report.analysis);
    expect(terminal).toContain('1 of 2 tests changed; 1 workload failed; A/A: 0 of 4 differ');
    expect(terminal).toContain(`FAILED: ${line}`);
    const markdown = renderMarkdown(report.header, report.analysis);
    expect(markdown).toContain('- ❌ broken_sum in B (big-chunks): no repeat ran cleanly (6 failed; last error: `RuntimeError: this build breaks broken_sum`); not compared');
    const comment = renderPullRequestComment(report);
    expect(comment).toMatch(/^### nightbench A\/B 0f1e2d3c: 1 of 2 tests changed; 1 workload failed;/m);
    expect(comment.indexOf('**Failed** (a failure, not a slowdown)')).toBeGreaterThan(0);
    expect(comment.indexOf('**Failed**')).toBeLessThan(comment.indexOf('**Significant changes**'));
    const page = abSitePageSchema.parse(sitePages(report, stored.config.environments)[0]);
    expect(page.failures).toEqual([line]);
    expect(page.summary).not.toMatch(/broken_sum/);
  });

  it('says what the A/B cost once it finished: its time, clusters and repeats, in every output', () => {
    const id = 'c0570000-0000-4000-8000-000000000001';
    const schedule = groups.map((g) => ({ group: g.label, suite: 'tiny', workload: 'chunked_sum', firstRepeat: 1, count: 6 }));
    history.ab.createAbTest({ ...record, id, schedule });
    fill(history, id);
    expect(reportAb(history.ab.abTest<AbTestRecord>(id), history.ab.abTestRows(id)).header.cost).toBeUndefined();
    history.ab.finishAbTest(id, 'complete', '2026-12-02T10:07:24.000Z');
    const stored = history.ab.abTest<AbTestRecord>(id);
    const report = reportAb(stored, history.ab.abTestRows(id));
    const cost = '7.4 min of cluster time, 3 clusters one at a time, 18 repeats';
    expect(renderTerminal(report.header, report.analysis).split('\n')).toContain(`  cost: ${cost}`);
    expect(renderMarkdown(report.header, report.analysis).split('\n')).toContain(`- cost: ${cost}`);
    expect(renderPullRequestComment(report)).toContain(`status complete; cost: ${cost}.`);
    expect(sitePages(report, stored.config.environments)[0]!.summary).toContain(`Cost: ${cost}.`);
    // Slots in parallel: the time is the A/B's, the cluster time up to that many times it.
    const parallel = reportAb({ ...stored, config: { ...stored.config, ab: { ...stored.config.ab, maxParallel: 3 } } }, history.ab.abTestRows(id));
    expect(renderTerminal(parallel.header, parallel.analysis)).toContain('cost: 7.4 min with up to 3 clusters at a time (at most 22.2 min of cluster time), 3 clusters, 18 repeats');
  });

  it('marks an A/B whose runner died incomplete, and reports what it recorded as partial', () => {
    const id = 'dead0000-0000-4000-8000-000000000001';
    // 8 repeats a side were scheduled; the runner died after 6.
    const schedule = groups.map((g) => ({ group: g.label, suite: 'tiny', workload: 'chunked_sum', firstRepeat: 1, count: 8 }));
    history.ab.createAbTest({ ...record, id, schedule });
    fill(history, id);
    expect(history.ab.markAbandonedAbTests(() => true)).toEqual([]);
    expect(history.ab.abTest<AbTestRecord>(id).status).toBe('running');
    expect(history.ab.markAbandonedAbTests((owner) => owner.pid !== process.pid)).toEqual([id]);
    expect(history.ab.markAbandonedAbTests(() => false)).toEqual([]);
    const stored = history.ab.abTest<AbTestRecord>(id);
    expect(stored.status).toBe('incomplete');
    expect(history.ab.abTests<AbTestRecord>().find((t) => t.id === id)!.status).toBe('incomplete');
    const report = reportAb(stored, history.ab.abTestRows(id));
    expect(report.analysis.notes[0]).toBe('partial: this A/B stopped before it finished; 18 of 24 scheduled repeats were recorded, and the analysis covers only those');
    expect(report.analysis.tests.find((t) => t.metric === 'peak_memory')!.verdict).toBe('worse');
    expect(renderTerminal(report.header, report.analysis)).toMatch(/\(incomplete\)[^]*note: partial: this A\/B stopped before it finished/);
    expect(sitePages(report, stored.config.environments)[0]!.summary).toMatch(/status incomplete\..*partial: this A\/B stopped/);
  });

  it('merges A/B tests with their runs from a shard, twice without duplicates', () => {
    const other = openHistory(path.join(dir, 'main.sqlite'));
    try {
      const [first, again] = mergeShardFiles(other.file, [path.join(dir, 'history.sqlite'), path.join(dir, 'history.sqlite')]);
      expect(first!.added).toMatchObject({ ab_tests: 1, runs: 3 });
      expect(again!.added).toMatchObject({ ab_tests: 0, runs: 0 });
      expect(other.ab.abTestRows(record.id)).toHaveLength(history.ab.abTestRows(record.id).length);
    } finally {
      other.close();
    }
  });

  it('writes with `ab report --result` the file `ab comment` reads: the same analysis, its change on the pull request', async () => {
    history.close();
    const resultFile = path.join(dir, 'ab-result.json');
    const run = await runCli(['ab', 'report', record.id.slice(0, 8), '--db', path.join(dir, 'history.sqlite'), '--result', resultFile, '--no-page', '--quiet'], { cwd: dir });
    history = openHistory(path.join(dir, 'history.sqlite'));
    expect(run.code, run.stderr).toBe(0);
    const read = readAbResult(resultFile);
    expect(read.analysis.tests.map((t) => [t.metric, t.verdict])).toEqual(reportAb(history.ab.abTest<AbTestRecord>(record.id), history.ab.abTestRows(record.id)).analysis.tests.map((t) => [t.metric, t.verdict]));
    expect(renderPullRequestComment(read)).toMatch(/\*\*Significant changes\*\*[\s\S]*\| chunked_sum \| peak_memory \|/);
  });
});
