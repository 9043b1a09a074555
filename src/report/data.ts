/**
 * History rows plus detection results -> the data of every page: index rows, per-workload series
 * (every repeat, nightly medians, the trailing-window baseline, markers) and each suite's commit
 * table. Pure: no I/O, no clock (the generation time is a parameter).
 *
 * @module
 */
import { judgeLevelChanges, nightlyLevels, summarizeSensitivity } from '../detect/index.js';
import { formatChange } from '../format/index.js';
import { relativeSpread } from '../stats/index.js';
import { sortedInBuffer } from '../stats/sort-into.js';
import type { SegmentationOptions } from '../stats/segmentation.js';
import type { PublishedIssues } from './published.js';
import type { CommitInfo } from '../history/types.js';
import { availabilityNotes } from './availability.js';
import { siteSeriesKey, type DetectionIndex } from './detection.js';
import { visitRunPoints } from '../history/workload-nights.js';
import { failingNightMarkers } from './failing-nights.js';
import { decimalExponent, fromUnits, toUnits, unitPower } from './format.js';
import { relativeHref, sitePaths, variantOf } from './paths.js';
import {
  statusOrder,
  type LevelSegment,
  type CommitRow, type CommitTable, type DrilldownLink, type FailureNote, type IndexPage, type IndexRow, type Marker, type MetricSeries, type ReportHistory, type ReportRun, type Variant, type VariantSeries, type WorkloadPage,
} from './types.js';

export interface SiteDataOptions {
  detection: DetectionIndex;
  /** Detection's threshold of a series (the baseline band's half-width). */
  threshold(suite: string, workload: string, metric: string): number;
  /** Nights before a night that form its baseline, and how many of them a baseline needs. */
  windowDays: number;
  minBaselineNights: number;
  /** How the nightly medians are cut into levels: detection's settings (`levelSegmentation`). */
  segmentation: SegmentationOptions;
  /** Nightly medians in each index sparkline. */
  sparkNights: number;
  /** Drill-down pages exist for the runs of the last N nights of each series (and regression nights). */
  drilldownNights: number;
  /** Whether samples were stored for a run of a workload (a drill-down needs them). */
  hasSamples(runId: string, workload: string): boolean;
  commitUrl(repo: string, sha: string): string | undefined;
  /** Where the broken workloads' issues were published (episodes' come through `detection`). */
  issues: PublishedIssues;
  generatedAt: string;
}

/** One workload on one variant: its nights, and per night the run and each metric's repeats. */
interface Group {
  suite: string;
  workload: string;
  variant: Variant;
  /** night -> the run that counts for it (the last one started, when a night was rerun). */
  runByNight: Map<string, ReportRun>;
  /**
   * runId -> the run's place in `values`' lists, for the runs with values: a list per metric
   * instead of a map of runs per metric, which took 620,000 map insertions at 20,000 series of 31
   * nights (155,000 here).
   */
  slots: Map<string, number>;
  /** metric -> per slot, the run's values by repeat number (absent: the run has none of it). */
  values: Map<string, SlotValues>;
  units: Map<string, string>;
  failures: Map<string, { repeat: number; status: string; error: string }[]>;
  /** runId -> repeats measured and configured, for the runs that cut this workload short. */
  cutShort: Map<string, { measured: number; configured: number }>;
}

const errorTail = (error: string | null) => (error ?? '').trim().split('\n').slice(-3).join('\n').slice(-400);

/**
 * The site's data derived a workload page at a time, for a build that writes each page as it is
 * derived: at 5,000 workloads, the pages' data held until all were derived (20,000 series of 31
 * nights, every repeat) survived each young-generation collection of the derive, which copied it.
 */
export interface SiteDerivation {
  commitTables: Map<string, CommitTable>;
  /** The runs whose drill-downs the workload pages link, known before any page is derived. */
  drilldowns: { workload: string; runId: string }[];
  /** How many workload pages `pages()` derives, known before any is. */
  pageCount: number;
  /** The workload pages in the site's order (suite, then workload), each derived as it is taken, with its index rows; once. */
  pages(): Generator<{ page: WorkloadPage; rows: IndexRow[] }>;
  /** The index, once every page was taken. */
  index(): IndexPage;
}

/** Derives the site's data a page at a time (`SiteDerivation`). */
export function deriveSite(history: ReportHistory, options: SiteDataOptions): SiteDerivation {
  const runs = new Map(history.runs.map((run) => [run.id, run]));
  // Groups in the order first seen (the pages take a workload's variants in that order), found
  // by variant (suite and variant id) and workload, and once found by run and workload: 155,000
  // (run, workload) pairs at 20,000 series of 31 nights, where a key string built for each pair
  // cost 0.3-0.5 s.
  const groups: Group[] = [];
  const byVariant = new Map<string, Map<string, Group>>();
  const ofRuns = new Map<string, { variant: Variant; groups: Map<string, Group>; byWorkload: Map<string, Group> }>();
  const groupOf = (run: ReportRun, workload: string): Group => {
    let ofRun = ofRuns.get(run.id);
    if (!ofRun) {
      const variant = variantOf(run);
      const variantKey = `${run.suite}\u0000${variant.id}`;
      let variantGroups = byVariant.get(variantKey);
      if (!variantGroups) byVariant.set(variantKey, (variantGroups = new Map()));
      ofRuns.set(run.id, (ofRun = { variant, groups: variantGroups, byWorkload: new Map() }));
    }
    const known = ofRun.byWorkload.get(workload);
    if (known) return known;
    let group = ofRun.groups.get(workload);
    if (!group) {
      group = { suite: run.suite, workload, variant: ofRun.variant, runByNight: new Map(), slots: new Map(), values: new Map(), units: new Map(), failures: new Map(), cutShort: new Map() };
      ofRun.groups.set(workload, group);
      groups.push(group);
    }
    const current = group.runByNight.get(run.night);
    if (!current || current.startedAt <= run.startedAt) group.runByNight.set(run.night, run);
    ofRun.byWorkload.set(workload, group);
    return group;
  };
  // The (run, workload) pairs with values, for the availability notes only.
  const measuredPairs = history.unsupported?.length ? new Set<string>() : undefined;
  for (const { runId, stored } of history.points) {
    const run = runs.get(runId);
    if (!run) continue;
    let workloadName = '';
    let group: Group | undefined;
    let slot = 0;
    visitRunPoints(runId, stored, {
      workload(workload) {
        workloadName = workload;
        group = undefined;
      },
      metric(metric, unit, values, from, count, repeats, repeatsFrom) {
        // The metrics without values are no series, nor the workloads with none: a workload's
        // group is taken at its first metric with values.
        if (count === 0) return;
        if (!group) {
          group = groupOf(run, workloadName);
          measuredPairs?.add(`${runId}\u0000${workloadName}`);
          slot = group.slots.size;
          group.slots.set(runId, slot);
        }
        keepValues(group, slot, metric, unit, values, from, count, repeats, repeatsFrom);
      },
    });
  }
  for (const f of history.failures) {
    const run = runs.get(f.runId);
    if (!run) continue;
    const group = groupOf(run, f.workload);
    // The machine's failures say so: they are no fault of the code.
    const status = f.failureClass === 'infrastructure' ? `${f.status} (infrastructure: ${f.failureCause})` : f.status;
    group.failures.set(f.runId, [...(group.failures.get(f.runId) ?? []), { repeat: f.repeat, status, error: errorTail(f.error) }]);
  }
  for (const c of history.cutShort ?? []) {
    const run = runs.get(c.runId);
    if (run) groupOf(run, c.workload).cutShort.set(c.runId, { measured: c.measured, configured: c.configured });
  }

  const commitTables = buildCommitTables(history, options);
  const runIndex = new Map<string, number>();
  for (const table of commitTables.values()) table.runs.forEach((run, i) => runIndex.set(run.id, i));

  // A page's groups (its variants) in the order first seen; the pages in the site's order.
  const byPage = new Map<string, PageGroups>();
  groups.forEach((group, i) => {
    const pageKey = `${group.suite}\u0000${group.workload}`;
    let page = byPage.get(pageKey);
    if (!page) byPage.set(pageKey, (page = { suite: group.suite, workload: group.workload, slug: sitePaths.workloadPage(group.suite, group.workload), groups: [] }));
    // What the page's variant shows besides its values, known before any value is derived: the
    // build starts writing the drill-downs these link before it derives the pages.
    const nights = [...group.runByNight.keys()].sort();
    const nightRuns = nights.map((night) => group.runByNight.get(night)!);
    const failing = failingNightMarkers(group.suite, group.workload, nightRuns.map((run) => ({
      night: run.night, failedRepeats: group.failures.get(run.id)?.length ?? 0,
      hasValues: group.slots.has(run.id), error: group.failures.get(run.id)?.find((f) => f.error)?.error,
      cutShort: group.cutShort.get(run.id),
    })), options.issues, page.slug);
    // The machine's nights on every chart, so a step on one is not read as a commit's.
    const machine = (options.detection.machineNights ?? []).filter((m) => group.runByNight.has(m.night)).map((m): Marker => ({ night: m.night, kind: 'machine', label: `machine night: ${m.reason}` }));
    const nightMarkers = [...failing, ...machine];
    const metrics = [...group.values.keys()].sort();
    // The nights some chart of the variant marks: each series' markers are detection's and the night markers.
    const marked = new Set<string>();
    for (const metric of metrics) {
      for (const marker of options.detection.markers(siteSeriesKey(group.suite, group.workload, metric, group.variant.id), page.slug)) marked.add(marker.night);
      for (const marker of nightMarkers) marked.add(marker.night);
    }
    page.groups.push({ group, index: i, nights, nightRuns, nightMarkers, metrics, drilldowns: drilldownLinks(group, nightRuns, marked, options) });
  });
  const pageOrder = [...byPage.values()].sort((a, b) => a.suite.localeCompare(b.suite) || a.workload.localeCompare(b.workload));

  let availability: Map<string, string> | undefined;
  if (history.unsupported?.length) {
    availability = availabilityNotes(history.runs, history.unsupported, (runId, workload) => measuredPairs!.has(`${runId}\u0000${workload}`));
  }

  // Index rows per group, in the groups' order (the order they are sorted from).
  const rowsOfGroup: IndexRow[][] = [];
  let taken = 0;
  function* pages(): Generator<{ page: WorkloadPage; rows: IndexRow[] }> {
    for (const { suite, workload, slug, groups: ofPage } of pageOrder) {
      const page: WorkloadPage = { suite, workload, slug, variants: [], failures: [] };
      const rows: IndexRow[] = [];
      for (const { group, index, nights, nightRuns, nightMarkers, metrics: names, drilldowns } of ofPage) {
        const metrics = names.map((metric) => metricSeries(group, metric, nightRuns, nightMarkers, options));
        page.variants.push({ variant: group.variant, nights, runs: nightRuns.map((run) => runIndex.get(run.id) ?? -1), metrics, drilldowns } satisfies VariantSeries);
        for (const run of nightRuns) {
          for (const f of group.failures.get(run.id) ?? []) page.failures.push({ night: run.night, variant: group.variant.label, ...f } satisfies FailureNote);
        }
        rows.push(...(rowsOfGroup[index] = indexRows(group, nightRuns, metrics, options)));
      }
      page.variants.sort(compareVariants);
      page.failures.sort((a, b) => b.night.localeCompare(a.night) || a.repeat - b.repeat);
      page.machineNights = (options.detection.machineNights ?? []).filter((m) => page.variants.some((v) => v.nights.includes(m.night)));
      const note = availability?.get(`${suite}\u0000${workload}`);
      if (note) page.availability = note;
      taken++;
      yield { page, rows };
    }
  }

  return {
    commitTables,
    drilldowns: pageOrder.flatMap(({ workload, groups: ofPage }) => ofPage.flatMap(({ drilldowns }) => drilldowns.map(({ runId }) => ({ workload, runId })))),
    pageCount: pageOrder.length,
    pages,
    index(): IndexPage {
      if (taken < pageOrder.length) throw new Error('the index is known once every workload page was derived');
      const rows = rowsOfGroup.flat();
      return {
        generatedAt: options.generatedAt,
        rows: rows.sort(compareIndexRows),
        suites: unique(rows.map((r) => r.suite)),
        metrics: unique(rows.map((r) => r.metric).filter(Boolean)),
        clusterShapes: unique(rows.map((r) => r.variant.clusterShape)),
        machineNights: options.detection.machineNights ?? [],
      };
    },
  };
}

/** A workload page's groups, each with what its variant shows besides its values. */
interface PageGroups {
  suite: string;
  workload: string;
  slug: string;
  groups: {
    group: Group;
    /** The group's place among all groups: its index rows go there. */
    index: number;
    nights: string[];
    nightRuns: ReportRun[];
    nightMarkers: Marker[];
    /** Its metrics, in name order. */
    metrics: string[];
    drilldowns: DrilldownLink[];
  }[];
}

/**
 * One metric's values of a group, every run's in one list: a list per run and metric was 620,000
 * lists held to the build's end at 20,000 series of 31 nights.
 */
interface SlotValues {
  values: number[];
  /** Per slot (run), where its values start in `values` and how many; absent: the run has none of the metric. */
  start: number[];
  count: number[];
  /** The slots whose values are not those of repeats 1..n in order: their repeat numbers. */
  repeats?: Map<number, number[]>;
}

/** Keeps a run's values of a metric (`values[from..from+count)`, their repeat numbers `repeats[repeatsFrom..]`) in its group. */
function keepValues(group: Group, slot: number, metric: string, unit: string | null, values: ArrayLike<number>, from: number, count: number, repeats: ArrayLike<number>, repeatsFrom: number): void {
  let kept = group.values.get(metric);
  if (!kept) group.values.set(metric, (kept = { values: [], start: [], count: [] }));
  kept.start[slot] = kept.values.length;
  kept.count[slot] = count;
  let inOrder = true;
  for (let k = 0; k < count; k++) {
    kept.values.push(values[from + k]!);
    if (repeats[repeatsFrom + k] !== k + 1) inOrder = false;
  }
  if (!inOrder) (kept.repeats ??= new Map()).set(slot, Array.from({ length: count }, (_, k) => repeats[repeatsFrom + k]!));
  // Never null here: every stored value has a unit (results.unit is NOT NULL).
  group.units.set(metric, unit ?? '');
}

/** A run's values of a metric by repeat number (repeats 1..n in order as most are): a repeat without a value is a hole (read as undefined). */
function valuesOfSlot(kept: SlotValues, slot: number): number[] {
  const count = kept.count[slot];
  if (count === undefined) return [];
  const start = kept.start[slot]!;
  const repeatNumbers = kept.repeats?.get(slot);
  if (repeatNumbers === undefined) return kept.values.slice(start, start + count);
  const repeats: number[] = [];
  for (let k = 0; k < count; k++) repeats[repeatNumbers[k]! - 1] = kept.values[start + k]!;
  return repeats;
}

/** The median of a night's repeats (holes left out), or null when it has none. */
function presentMedian(values: readonly (number | undefined)[]): number | null {
  // Indexed loops here and below: `for...of` over these arrays took 0.11 s of a derive at 20,000 series.
  for (let k = 0; k < values.length; k++) if (values[k] === undefined) return presentMedian(values.filter((value) => value !== undefined));
  return values.length === 0 ? null : sortedMedian(values as readonly number[], 0, values.length);
}

/**
 * The median of `values[start..end)` (non-empty), sorted in the kept buffer detection's `medianOf`
 * sorts in: 1.2 million medians at 20,000 series of 31 nights, where a copy of each window cost
 * allocations the collector then swept. Not `medianOf` itself: the middle two are averaged as
 * `simple-statistics`' `median` does (`lo + 0.5 (hi - lo)`, not `(lo + hi) / 2`), which the pages
 * took before, so their numbers are the same doubles.
 */
function sortedMedian(values: readonly number[], start: number, end: number): number {
  const n = end - start;
  const sorted = sortedInBuffer(values, start, end);
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid]!;
  const lo = sorted[mid - 1]!;
  return lo + 0.5 * (sorted[mid]! - lo);
}

function metricSeries(group: Group, metric: string, nightRuns: ReportRun[], nightMarkers: Marker[], options: SiteDataOptions): MetricSeries {
  const slotValues = group.values.get(metric)!;
  const key = siteSeriesKey(group.suite, group.workload, metric, group.variant.id);
  const judgement = options.detection.judge(key, nightRuns.at(-1)?.night);
  const perNight = nightRuns.map((run) => {
    const slot = group.slots.get(run.id);
    return slot === undefined ? [] : valuesOfSlot(slotValues, slot);
  });
  const repeatCount = Math.max(0, ...perNight.map((values) => values.length));
  // A night an incomplete run cut short shows its repeats but, as in detection, is no point of the series.
  const medians = perNight.map((values, i) => (group.cutShort.has(nightRuns[i]!.id) ? null : presentMedian(values)));
  // Detection's window counts results, not days (issue 30): a history with a result every ten
  // days has a baseline band too, and it is the one detection compared each night with: the
  // last `windowDays` medians before the night.
  const results: number[] = [];
  const baseline = medians.map((nightMedian) => {
    const size = Math.min(results.length, options.windowDays);
    const windowMedian = size >= options.minBaselineNights && size > 0 ? sortedMedian(results, results.length - size, results.length) : null;
    if (nightMedian !== null) results.push(nightMedian);
    return windowMedian;
  });
  // A loop, not perNight.flat().filter(): that took 1.0 s of a 5,000-workload build on a loaded
  // machine (20,000 series of 30 nights); a loop over the same shapes alone, 0.05 s against 0.42 s.
  const present: number[] = [];
  for (const values of perNight) {
    for (let k = 0; k < values.length; k++) if (values[k] !== undefined) present.push(values[k]!);
  }
  const exponent = decimalExponent(present);
  const power = unitPower(exponent);
  const units = (value: number | null | undefined) => (value === null || value === undefined ? null : toUnits(value, exponent, power));
  return {
    metric, unit: group.units.get(metric) ?? '', threshold: options.threshold(group.suite, group.workload, metric), exponent,
    repeats: Array.from({ length: repeatCount }, (_, r) => perNight.map((values) => units(values[r]))),
    median: medians.map(units), baseline: baseline.map(units),
    markers: [...options.detection.markers(key, sitePaths.workloadPage(group.suite, group.workload)), ...nightMarkers],
    levels: levelsWithChanges(medians, nightRuns, options, key, group, metric).map((segment) => ({ ...segment, level: toUnits(segment.level, exponent, power) })),
    status: judgement.status,
    statusNote: judgement.note,
    changeSinceEpisode: judgement.changeSinceEpisode,
    issue: judgement.issue,
    sensitivity: judgement.detectable === undefined ? undefined : summarizeSensitivity(judgement.detectable),
    sensitivityFrom: judgement.reachKnownFrom,
  };
}

/** The series' levels, each after the first with the step into it and what detection decided (`judgeLevelChanges`). */
function levelsWithChanges(medians: (number | null)[], nightRuns: ReportRun[], options: SiteDataOptions, key: string, group: Group, metric: string): LevelSegment[] {
  const segments = nightlyLevels(medians, options.segmentation);
  const episodeNights = options.detection.markers(key, sitePaths.workloadPage(group.suite, group.workload)).filter((marker) => marker.kind !== 'recovery').map((marker) => marker.night);
  const changes = judgeLevelChanges(segments, nightRuns.map((run) => run.night), episodeNights, options.threshold(group.suite, group.workload, metric), options.windowDays);
  return segments.map((segment, i) => {
    const change = changes[i];
    if (change === undefined) return segment;
    const decision = change.decision === 'episode' ? `episode from ${change.episodeNight}` : change.decision;
    return { ...segment, change: `${formatChange(change.size)}, ${decision}` };
  });
}

function indexRows(group: Group, nightRuns: ReportRun[], metrics: MetricSeries[], options: SiteDataOptions): IndexRow[] {
  const href = sitePaths.workloadPage(group.suite, group.workload);
  const last = nightRuns.at(-1);
  const lastFailures = last ? (group.failures.get(last.id) ?? []) : [];
  const error = lastFailures.find((f) => f.error)?.error;
  const base = { suite: group.suite, workload: group.workload, href, variant: group.variant, latestNight: last?.night, error };
  if (metrics.length === 0) {
    // Every repeat failed, every night: the workload still belongs on the index, as failing.
    return [{ ...base, metric: '', unit: '', status: 'failing', statusNote: 'no repeat has ever succeeded', spark: [] }];
  }
  return metrics.map((series): IndexRow => {
    const power = unitPower(series.exponent);
    const decode = (units: number | null | undefined) => (units === null || units === undefined ? undefined : fromUnits(units, series.exponent, power));
    const lastIndex = series.median.length - 1;
    const latest = decode(series.median[lastIndex]);
    const baseline = decode(series.baseline[lastIndex]);
    const window = series.median.slice(Math.max(0, lastIndex - options.windowDays), lastIndex).filter((m): m is number => m !== null);
    const change = series.changeSinceEpisode ?? (latest !== undefined && baseline ? latest / baseline - 1 : undefined);
    return {
      ...base, metric: series.metric, unit: series.unit, status: series.status, statusNote: series.statusNote,
      latest, baseline, change: change === undefined ? undefined : Number(change.toPrecision(4)),
      noise: window.length >= 2 ? Number(relativeSpread(window).toPrecision(3)) : undefined,
      spark: series.median.slice(-options.sparkNights).map((m) => decode(m) ?? null),
      issue: series.issue,
    };
  });
}

/** Drill-downs for the most recent nights, and for every night a marker (`marked`) points at. */
function drilldownLinks(group: Group, nightRuns: ReportRun[], marked: ReadonlySet<string>, options: SiteDataOptions): DrilldownLink[] {
  const page = sitePaths.workloadPage(group.suite, group.workload);
  return nightRuns
    .filter((run, i) => (i >= nightRuns.length - options.drilldownNights || marked.has(run.night)) && options.hasSamples(run.id, group.workload))
    .reverse()
    .map((run) => ({ night: run.night, runId: run.id, href: relativeHref(page, sitePaths.drilldownPage(group.suite, group.workload, run.id)) }));
}

function buildCommitTables(history: ReportHistory, options: SiteDataOptions): Map<string, CommitTable> {
  const commits = new Map(history.commits.map((c) => [`${c.repo}\u0000${c.sha}`, c]));
  const tables = new Map<string, CommitTable & { rowIndex: Map<string, number> }>();
  for (const run of history.runs) {
    let table = tables.get(run.suite);
    if (!table) tables.set(run.suite, (table = { runs: [], commits: [], rowIndex: new Map() }));
    const indices = run.commits.map(({ repo, sha }) => {
      const key = `${repo}\u0000${sha}`;
      let index = table.rowIndex.get(key);
      if (index === undefined) {
        index = table.commits.push(commitRow(repo, sha, commits.get(key), options)) - 1;
        table.rowIndex.set(key, index);
      }
      return index;
    });
    table.runs.push({ id: run.id, night: run.night, commits: indices });
  }
  return new Map([...tables].map(([suite, { runs, commits: rows }]) => [suite, { runs, commits: rows }]));
}

/** A commit as the pages show it; a commit the history never described still links by sha. */
export function commitRow(repo: string, sha: string, info: CommitInfo | undefined, options: Pick<SiteDataOptions, 'commitUrl'>): CommitRow {
  return { repo, sha, subject: info?.subject ?? '', author: info?.authorName ?? '', date: info?.committedAt ?? '', url: options.commitUrl(repo, sha) };
}

/**
 * A workload page's variants, the one it opens on first: the worst status among its metrics (a
 * regression before a variant no longer run), then the latest night, then the label. A real asv
 * history's first variant by name was an environment retired years ago, while its regressions
 * were on the ones still run.
 */
function compareVariants(a: VariantSeries, b: VariantSeries): number {
  const worst = (v: VariantSeries) => Math.min(...v.metrics.map((m) => statusOrder.indexOf(m.status)));
  return worst(a) - worst(b) || (b.nights.at(-1) ?? '').localeCompare(a.nights.at(-1) ?? '') || a.variant.label.localeCompare(b.variant.label);
}

/** Open regressions first (largest change first), then failures, improvements, the rest by name. */
function compareIndexRows(a: IndexRow, b: IndexRow): number {
  const byStatus = statusOrder.indexOf(a.status) - statusOrder.indexOf(b.status);
  if (byStatus !== 0) return byStatus;
  const byChange = a.status === 'stable' ? 0 : Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0);
  return (
    byChange ||
    a.suite.localeCompare(b.suite) || a.workload.localeCompare(b.workload) || a.metric.localeCompare(b.metric) || a.variant.label.localeCompare(b.variant.label)
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)].sort();
}
