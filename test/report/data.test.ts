import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy, levelSegmentation } from '../../src/detect/index.js';
import { deriveSite, type SiteDataOptions } from '../../src/report/data.js';
import { encodeRunPoints, type MetricValues, type RunFacts } from '../../src/history/workload-nights.js';
import { siteSeriesKey, type DetectionIndex, type SeriesJudgement } from '../../src/report/detection.js';
import { fromUnits } from '../../src/report/format.js';
import { variantOf } from '../../src/report/paths.js';
import { publishedIssues } from '../../src/report/published.js';
import type { Marker, ReportHistory, ReportRun } from '../../src/report/types.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';

const shape = { environmentName: 'default', environmentFingerprint: 'f1', provider: 'local', clusterShape: 'local:2x1:2GiB' };
const other = { ...shape, clusterShape: 'local:4x1:2GiB' };
const night = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10);

function run(id: string, i: number, comparability = shape, startedAt = `${night(i)}T02:00:00Z`): ReportRun {
  return { id, suite: 'dask', night: night(i), startedAt, ...comparability, commits: [{ repo: 'dask/dask', sha: `sha${i}` }] };
}

interface Value {
  runId: string;
  workload: string;
  repeat: number;
  metric: string;
  value: number;
  unit: string;
}

/** Values one by one, stored as the history stores them: per run its workloads, per workload its metrics in the order they come. */
function pointsOf(values: readonly Value[]): ReportHistory['points'] {
  const byRun = new Map<string, Map<string, MetricValues[]>>();
  for (const v of values) {
    const workloads = byRun.get(v.runId) ?? byRun.set(v.runId, new Map()).get(v.runId)!;
    const metrics = workloads.get(v.workload) ?? workloads.set(v.workload, []).get(v.workload)!;
    let metric = metrics.find(([name]) => name === v.metric);
    if (!metric) metrics.push((metric = [v.metric, v.unit, [], []]));
    metric[2].push(v.value);
    metric[3] = [...metric[3], v.repeat];
  }
  // The run's facts are not part of its stored points (the history keeps them in its row).
  const run = {} as RunFacts;
  return [...byRun].map(([runId, workloads]) => ({
    runId,
    stored: encodeRunPoints([...workloads].map(([workload, metrics]) => ({ run, workload, workloadVersion: '1', okRepeats: 3, disturbedRepeats: 0, failedRepeats: 0, metrics }))),
  }));
}

/** Every workload page, the index and the commit tables, derived at once. */
function buildSiteData(history: ReportHistory, siteOptions: SiteDataOptions) {
  const site = deriveSite(history, siteOptions);
  const workloads = [...site.pages()].map(({ page }) => page);
  return { workloads, index: site.index(), commitTables: site.commitTables };
}

/** Five nights of shuffle wall_time (3 repeats) on one shape, one night on another, and a workload that only fails. */
function history(): ReportHistory {
  const runs = [0, 1, 2, 3, 4].map((i) => run(`r${i}`, i));
  runs.push(run('r4-rerun', 4, shape, `${night(4)}T09:00:00Z`), run('big0', 0, other));
  const values: Value[] = [];
  const level = [10, 11, 12, 13, 30];
  for (const [i, r] of runs.slice(0, 5).entries()) {
    for (const repeat of [1, 2, 3]) values.push({ runId: r.id, workload: 'shuffle', repeat, metric: 'wall_time', value: level[i]! + repeat - 2, unit: 's' });
  }
  for (const repeat of [1, 2, 3]) values.push({ runId: 'r4-rerun', workload: 'shuffle', repeat, metric: 'wall_time', value: 14 + repeat - 2, unit: 's' });
  values.push({ runId: 'big0', workload: 'shuffle', repeat: 1, metric: 'wall_time', value: 5, unit: 's' });
  return {
    runs, points: pointsOf(values),
    failures: [{ runId: 'r4-rerun', workload: 'broken', repeat: 1, status: 'failed', error: 'line 1\nline 2\nKilledWorker', failureClass: 'code', failureCause: 'the workload failed' }],
    commits: [{ repo: 'dask/dask', sha: 'sha1', parents: [], authorName: 'Ada', authorEmail: 'a@x', authoredAt: '', committedAt: '2026-01-02', subject: 'Speed up' }],
  };
}

function options(judgements: Record<string, SeriesJudgement> = {}, markers: Record<string, Marker[]> = {}, overrides: Partial<SiteDataOptions> = {}): SiteDataOptions {
  const detection: DetectionIndex = { judge: (key) => judgements[key] ?? { status: 'stable' }, markers: (key) => markers[key] ?? [] };
  return {
    detection, threshold: () => 0.1, windowDays: 7, minBaselineNights: 3, segmentation: levelSegmentation(defaultDetectionPolicy), sparkNights: 30, drilldownNights: 1,
    hasSamples: () => true, commitUrl: (repo, sha) => `https://example.org/${repo}/${sha}`, issues: publishedIssues(new Set(), (n) => `https://example.org/issues/${n}`, episodeIssueFingerprint),
    generatedAt: '2026-01-06T06:00:00.000Z', ...overrides,
  };
}

const key = (workload: string, metric: string, c = shape) => siteSeriesKey('dask', workload, metric, variantOf(c).id);

describe('deriveSite', () => {
  it('gives every night its repeats, median and the trailing-window baseline; a rerun night counts its last run', () => {
    const { workloads } = buildSiteData(history(), options());
    const shuffle = workloads.find((w) => w.workload === 'shuffle')!;
    const main = shuffle.variants.find((v) => v.variant.clusterShape === shape.clusterShape)!;
    const series = main.metrics[0]!;
    expect(main.nights).toEqual([0, 1, 2, 3, 4].map(night));
    // Values travel as integers in units of 10^exponent: five significant digits of the largest (15).
    expect(series.exponent).toBe(-3);
    const decode = (values: (number | null)[]) => values.map((v) => (v === null ? null : fromUnits(v, series.exponent)));
    expect(series.repeats.map(decode)).toEqual([[9, 10, 11, 12, 13], [10, 11, 12, 13, 14], [11, 12, 13, 14, 15]]);
    expect(series.median[0]).toBe(10_000);
    expect(decode(series.median)).toEqual([10, 11, 12, 13, 14]);
    // A baseline needs three earlier nights.
    expect(decode(series.baseline)).toEqual([null, null, null, 11, 11.5]);
    expect(series.threshold).toBe(0.1);
  });

  it('counts the baseline window in results, as detection does: a history with a result every ten days has its band', () => {
    const runs = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((day) => run(`s${day}`, day));
    const values = runs.map((r, i) => ({ runId: r.id, workload: 'shuffle', repeat: 1, metric: 'wall_time', value: 10 + i, unit: 's' }));
    const series = buildSiteData({ runs, points: pointsOf(values), failures: [], commits: [] }, options()).workloads[0]!.variants[0]!.metrics[0]!;
    const baseline = series.baseline.map((v) => (v === null ? null : fromUnits(v, series.exponent)));
    // Night 9's window is the 7 results before it (values 12..18), 70 days back.
    expect(baseline).toEqual([null, null, null, 11, 11.5, 12, 12.5, 13, 14, 15]);
  });

  it('never mixes cluster shapes', () => {
    const shuffle = buildSiteData(history(), options()).workloads.find((w) => w.workload === 'shuffle')!;
    expect(shuffle.variants.map((v) => [v.variant.clusterShape, v.nights.length, v.metrics[0]!.median.map((m) => fromUnits(m!, v.metrics[0]!.exponent))])).toEqual([
      ['local:2x1:2GiB', 5, [10, 11, 12, 13, 14]],
      ['local:4x1:2GiB', 1, [5]],
    ]);
  });

  it('opens a workload page on its variant that matters most: the worst status, then the latest night, then the name', () => {
    const order = (judgements: Record<string, SeriesJudgement>) =>
      buildSiteData(history(), options(judgements)).workloads.find((w) => w.workload === 'shuffle')!.variants.map((v) => v.variant.clusterShape);
    // Both stable: 2x1 ran on the latest night, 4x1 only on the first.
    expect(order({})).toEqual(['local:2x1:2GiB', 'local:4x1:2GiB']);
    expect(order({ [key('shuffle', 'wall_time', other)]: { status: 'regressed' } })).toEqual(['local:4x1:2GiB', 'local:2x1:2GiB']);
    expect(order({ [key('shuffle', 'wall_time')]: { status: 'not-run' } })).toEqual(['local:4x1:2GiB', 'local:2x1:2GiB']);
  });

  it('lists regressions first on the index with their issue, and a workload that only failed as failing', () => {
    const { index } = buildSiteData(history(), options({ [key('shuffle', 'wall_time')]: { status: 'regressed', issue: { label: '#7', href: 'https://example.org/issues/7' }, changeSinceEpisode: 0.4 } }));
    expect(index.rows.map((r) => [r.workload, r.variant.clusterShape, r.status])).toEqual([
      ['shuffle', 'local:2x1:2GiB', 'regressed'],
      ['broken', 'local:2x1:2GiB', 'failing'],
      ['shuffle', 'local:4x1:2GiB', 'stable'],
    ]);
    const [regressed, broken] = index.rows;
    expect(regressed).toMatchObject({ latest: 14, baseline: 11.5, change: 0.4, issue: { label: '#7', href: 'https://example.org/issues/7' }, latestNight: night(4) });
    expect(regressed!.noise).toBeGreaterThan(0);
    expect(broken).toMatchObject({ metric: '', error: 'line 1\nline 2\nKilledWorker', spark: [] });
    expect(index.metrics).toEqual(['wall_time']);
    expect(index.clusterShapes).toEqual(['local:2x1:2GiB', 'local:4x1:2GiB']);
  });

  it("says on the workload page which failures were the machine's, with their cause", () => {
    const machine = history();
    machine.failures.push({ runId: 'r3', workload: 'broken', repeat: 1, status: 'failed', error: 'cluster: no capacity', failureClass: 'infrastructure', failureCause: 'the cluster did not start or could not be reset' });
    const page = buildSiteData(machine, options()).workloads.find((w) => w.workload === 'broken')!;
    expect(page.failures.map((f) => [f.night, f.status])).toEqual([
      [night(4), 'failed'],
      [night(3), 'failed (infrastructure: the cluster did not start or could not be reset)'],
    ]);
  });

  it('shows the repeats of a night an incomplete run cut short, marked, but no median or baseline from it', () => {
    const cut = history();
    cut.cutShort = [{ runId: 'r2', workload: 'shuffle', measured: 3, configured: 5 }];
    const main = buildSiteData(cut, options({}, {}, { minBaselineNights: 2 })).workloads.find((w) => w.workload === 'shuffle')!.variants.find((v) => v.variant.clusterShape === shape.clusterShape)!;
    const series = main.metrics[0]!;
    const decode = (values: (number | null)[]) => values.map((v) => (v === null ? null : fromUnits(v, series.exponent)));
    expect(series.repeats.map((r) => r[2]).map((v) => fromUnits(v!, series.exponent))).toEqual([11, 12, 13]);
    expect(decode(series.median)).toEqual([10, 11, null, 13, 14]);
    // The baselines leave night 2 out, as detection does: night 3's is nights 0 and 1, night 4's 0, 1 and 3.
    expect(decode(series.baseline)).toEqual([null, null, 10.5, 10.5, 11]);
    expect(series.markers).toEqual([{ night: night(2), kind: 'cut-short', label: 'incomplete: run cut short (3 of 5 repeats measured; not judged)' }]);
  });

  it("marks a machine night on every chart of the workloads that ran it, with detection's reason", () => {
    const reason = 'canary compute_seconds +62.0%; 1 of 1 timed series moved slower together';
    const detection: DetectionIndex = { judge: () => ({ status: 'stable' }), markers: () => [], machineNights: [{ night: night(3), reason }, { night: night(9), reason }] };
    const { workloads } = buildSiteData(history(), options({}, {}, { detection }));
    const shuffle = workloads.find((w) => w.workload === 'shuffle')!;
    const [main, big] = [shape, other].map((c) => shuffle.variants.find((v) => v.variant.clusterShape === c.clusterShape)!.metrics[0]!);
    expect(main!.markers).toEqual([{ night: night(3), kind: 'machine', label: `machine night: ${reason}` }]);
    // The other shape ran only night 0; a night the history does not hold marks nothing.
    expect(big!.markers).toEqual([]);
    expect(shuffle.machineNights).toEqual([{ night: night(3), reason }]);
  });

  it('computes the change against the trailing week when there is no open episode', () => {
    const row = buildSiteData(history(), options()).index.rows.find((r) => r.variant.clusterShape === shape.clusterShape && r.workload === 'shuffle')!;
    expect(row.change).toBeCloseTo(14 / 11.5 - 1, 3);
  });

  it('offers drill-downs for the latest nights and for marked nights, only where samples exist', () => {
    const marker: Marker = { night: night(2), kind: 'regression', label: 'regression +20%' };
    const links = (hasSamples: SiteDataOptions['hasSamples']) =>
      buildSiteData(history(), options({}, { [key('shuffle', 'wall_time')]: [marker] }, { hasSamples })).workloads.find((w) => w.workload === 'shuffle')!.variants[0]!.drilldowns;
    expect(links(() => true).map((l) => [l.night, l.runId])).toEqual([[night(4), 'r4-rerun'], [night(2), 'r2']]);
    expect(links(() => true)[0]!.href).toBe('../../run.html?suite=dask&workload=shuffle&run=r4-rerun');
    expect(links((runId) => runId !== 'r2').map((l) => l.runId)).toEqual(['r4-rerun']);
    expect(links(() => false)).toEqual([]);
  });

  it('shares one commit table per suite, each commit once, described where the history knows it', () => {
    const table = buildSiteData(history(), options()).commitTables.get('dask')!;
    expect(table.runs).toHaveLength(7);
    expect(table.commits).toHaveLength(5);
    const described = table.commits.find((c) => c.sha === 'sha1')!;
    expect(described).toEqual({ repo: 'dask/dask', sha: 'sha1', subject: 'Speed up', author: 'Ada', date: '2026-01-02', url: 'https://example.org/dask/dask/sha1' });
    const shuffle = buildSiteData(history(), options()).workloads.find((w) => w.workload === 'shuffle')!.variants[0]!;
    expect(shuffle.runs.map((i) => table.runs[i]!.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4-rerun']);
  });

  it("carries each series' levels over its whole history, in the data's units, cut with detection's settings", () => {
    const runs = Array.from({ length: 24 }, (_, i) => run(`n${i}`, i));
    const values: Value[] = runs.flatMap((r, i) => [1, 2, 3].flatMap((repeat) => [
      { runId: r.id, workload: 'shuffle', repeat, metric: 'wall_time', value: (i < 12 ? 10 : 15) * (1 + 0.01 * (((i * 7 + repeat) % 5) - 2)), unit: 's' },
      { runId: r.id, workload: 'shuffle', repeat, metric: 'disk_seconds', value: 0, unit: 'seconds' },
    ]));
    const [disk, wall] = buildSiteData({ runs, points: pointsOf(values), failures: [], commits: [] }, options()).workloads[0]!.variants[0]!.metrics;
    expect(wall!.levels.map(({ start, end }) => [start, end])).toEqual([[0, 12], [12, 24]]);
    expect(wall!.levels.map(({ level }) => fromUnits(level, wall!.exponent))).toEqual([expect.closeTo(10, 1), expect.closeTo(15, 1)]);
    expect(disk!.levels).toEqual([{ start: 0, end: 24, level: 0 }]);
    // No episode was recorded for the +50% step: the page says so rather than drawing it silently.
    expect(wall!.levels.map((segment) => segment.change)).toEqual([undefined, expect.stringMatching(/^\+\d+(\.\d+)?%, not judged$/)]);
  });
});
