/**
 * The compare page's data, from the page data the build already derived: an index of every
 * series (with its nightly noise from the index), the nights each commit ran and the A/B reports'
 * repeats with their A/A bands; and per night one file of every series' repeats (in the workload
 * pages' integer units), so the page loads only the nights a selection names. Pure.
 *
 * @module
 */
import type { MetricDirection } from '../../direction.js';
import type { AbSitePage } from '../../ab/site-page-schema.js';
import type { CommitTable, MachineNightNote, WorkloadPage } from '../types.js';
import { appendToRuns, packNightValues, type CompareData, type CompareSeries, type StoredCompareNight } from './selection.js';
import { sitePaths } from '../paths.js';

export type MetricDirectionOf = (suite: string, workload: string, metric: string) => MetricDirection;

/**
 * The compare page's index (series, nights, commits, A/B tests) and one values file per night,
 * gathered a workload page at a time in the site's order, so that a build that writes each page as
 * it is derived need not keep the pages: only their values, packed at the end.
 */
export class CompareCollector {
  private readonly series: CompareSeries[] = [];
  private readonly byNight = new Map<string, { runs: number[]; values: number[] }>();

  constructor(private readonly direction: MetricDirectionOf) {}

  /** A page's series; `noise`: a series' nightly noise from its index row. */
  add(page: WorkloadPage, noise: (metric: string, variantId: string) => number | undefined): void {
    const { series, byNight, direction } = this;
    for (const variant of page.variants) {
      // Each night's file looked up once a variant, not once a series and night (620,000 lookups at 20,000 series of 31 nights).
      const intos = variant.nights.map((night) => {
        let into = byNight.get(night);
        if (into === undefined) byNight.set(night, (into = { runs: [], values: [] }));
        return into;
      });
      for (const metric of variant.metrics) {
        // 2 million values at 20,000 series: appended one by one, without an array per night and series.
        for (let i = 0; i < intos.length; i++) {
          const into = intos[i]!;
          const before = into.values.length;
          for (const repeat of metric.repeats) {
            const value = repeat[i];
            if (value !== null && value !== undefined) into.values.push(value);
          }
          if (into.values.length > before) appendToRuns(into.runs, series.length, into.values.length - before);
        }
        series.push({
          suite: page.suite, workload: page.workload, metric: metric.metric, unit: metric.unit, variant: variant.variant.label, href: sitePaths.workloadVariant(page.suite, page.workload, variant.variant.id),
          direction: direction(page.suite, page.workload, metric.metric), noise: noise(metric.metric, variant.variant.id),
          exponent: metric.exponent,
        });
      }
    }
  }

  /** The data, once every page was added. */
  finish(commitTables: ReadonlyMap<string, CommitTable>, machineNights: MachineNightNote[], abReports: readonly AbSitePage[], generatedAt: string): { data: CompareData; nights: Map<string, StoredCompareNight> } {
    const { series, direction } = this;
    const nights = [...this.byNight.keys()].sort();
    const nightIndex = new Map(nights.map((night, i) => [night, i]));
    const commits = new Map<string, CompareData['commits'][number]>();
    for (const table of commitTables.values()) {
      for (const run of table.runs) {
        const index = nightIndex.get(run.night);
        if (index === undefined) continue;
        for (const c of run.commits) {
          const { repo, sha } = table.commits[c]!;
          const key = `${repo}@${sha}`;
          if (!commits.has(key)) commits.set(key, { repo, sha, nights: [] });
          const entry = commits.get(key)!;
          if (!entry.nights.includes(index)) entry.nights.push(index);
        }
      }
    }

    const ab = abReports.map((report) => ({
      id: report.id, title: report.title, baseline: report.baseline.name, candidate: report.candidate.name,
      tests: report.comparisons.filter((c) => c.baselineValues && c.candidateValues).map((c) => ({
        workload: c.workload, metric: c.metric, unit: c.unit, direction: direction('', c.workload, c.metric),
        base: c.baselineValues!, new: c.candidateValues!,
        ...(c.bandLow !== undefined && c.bandHigh !== undefined ? { band: { low: c.bandLow, high: c.bandHigh } } : {}),
        // The report's own interval, where it is at the table's level: the page does not draw another from other resamples.
        ...(report.confidence === 0.95 && c.ratio !== undefined && c.low !== undefined && c.high !== undefined ? { interval: { ratio: c.ratio, low: c.low, high: c.high } } : {}),
      })),
    }));
    const data = { generatedAt, nights, commits: [...commits.values()].map((c) => ({ ...c, nights: c.nights.sort((a, b) => a - b) })), series, ab, ...(machineNights.length > 0 ? { machineNights } : {}) };
    return { data, nights: new Map(nights.map((night) => { const { runs, values } = this.byNight.get(night)!; return [night, { runs, values: packNightValues(values) }]; })) };
  }
}
