/**
 * Where each page and data file of the site lives, relative to the site root. Names from the
 * outside (suites, workloads) become safe file names here and nowhere else, so links and files
 * always agree. Pure.
 *
 * @module
 */
import { formatVariant } from '../format/index.js';
import type { Comparability } from '../history/types.js';
import type { Variant } from './types.js';

/** FNV-1a, 32 bits, as 8 hex digits: short stable ids for names that are not file-safe. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A file-safe name: the name itself when it is already lower-case letters, digits, "_", "-"
 * and ".", else a cleaned form plus a hash of the original, so two names never share a file.
 */
export function slugify(name: string): string {
  if (/^[a-z0-9_][a-z0-9_.-]{0,80}$/.test(name)) return name;
  const cleaned = name.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60);
  return `${cleaned || 'x'}-${shortHash(name)}`;
}

/** The variant of a run: its cluster shape and environment, which make values comparable. */
export function variantOf(c: Comparability): Variant {
  const key = [c.environmentName, c.environmentFingerprint, c.provider, c.clusterShape, c.instanceType ?? ''].join('\u0000');
  return { id: shortHash(key), label: formatVariant(c), clusterShape: c.clusterShape, environment: c.environmentName };
}

/** The address parameter that picks a workload page's variant: the index and the compare page link each row to its own. */
export const variantParam = 'variant';

/** The address parameters that name the run of the drill-down page, by its suite, workload and run id. */
export const drilldownParams = { suite: 'suite', workload: 'workload', run: 'run' } as const;

/**
 * How many parts a run's drill-downs are spread over. At 5,000 workloads a drill-down is 4-27 KB
 * (15 KB on average), so a part holds 10-32 of them, under 0.9 MB; past about 15,000 workloads a
 * run, parts would pass 1 MB.
 */
export const drilldownParts = 256;

/** The part of every run's drill-downs that holds `workload`'s: from its name alone, so the drill-down page finds it from its address. */
export function drilldownPart(workload: string): number {
  return Number.parseInt(shortHash(workload), 16) % drilldownParts;
}

export const sitePaths = {
  index: 'index.html',
  /** The index's rows, part by part (`index-data.ts`). */
  indexData: (part: number) => `data/index/${part}.js`,
  abIndex: 'ab/index.html',
  quality: 'quality.html',
  compare: 'compare.html',
  compareData: 'data/compare.js',
  /** One night's values for the compare page (nights are YYYY-MM-DD, already file-safe). */
  compareNight: (night: string) => `data/compare/${slugify(night)}.js`,
  /** The compare page's series, in parts of about 1 MB (`data-parts.ts`). */
  compareSeries: (part: number) => `data/compare-series/${part}.js`,
  abReport: (id: string) => `ab/${slugify(id)}.html`,
  workloadPage: (suite: string, workload: string) => `workloads/${slugify(suite)}/${slugify(workload)}.html`,
  /** The workload page opened on one variant (the page reads `variantParam` from its address). */
  workloadVariant: (suite: string, workload: string, variantId: string) => `${sitePaths.workloadPage(suite, workload)}?${variantParam}=${encodeURIComponent(variantId)}`,
  workloadData: (suite: string, workload: string) => `data/${slugify(suite)}/workloads/${slugify(workload)}.js`,
  commitData: (suite: string) => `data/${slugify(suite)}/commits.js`,
  /**
   * The one drill-down page of the site: it shows the run its address names (`drilldownParams`)
   * from that run's data file. A page per run cost a render and a write of each of a night's
   * 5,000 drill-downs at 20,000 series.
   */
  drilldown: 'run.html',
  drilldownPage: (suite: string, workload: string, runId: string) =>
    `${sitePaths.drilldown}?${drilldownParams.suite}=${encodeURIComponent(suite)}&${drilldownParams.workload}=${encodeURIComponent(workload)}&${drilldownParams.run}=${encodeURIComponent(runId)}`,
  /** The data file that holds `workload`'s drill-down of run `runId`: the run's part of it (`drilldownPart`). */
  drilldownData: (suite: string, workload: string, runId: string) => sitePaths.drilldownPart(suite, runId, drilldownPart(workload)),
  /**
   * One part of a run's drill-downs. A file per (run, workload) made a night's increment create
   * 5,000 files at 5,000 workloads (1.0-1.6 s, mostly system time, bench/README.md).
   */
  drilldownPart: (suite: string, runId: string, part: number) => `data/${slugify(suite)}/drilldowns/${slugify(runId)}/${part}.js`,
  /** Present while the parts of a run still being written are on disk: they may lack what it recorded since, so none is kept. */
  drilldownUnfinished: (suite: string, runId: string) => `data/${slugify(suite)}/drilldowns/${slugify(runId)}/unfinished`,
  asset: (name: string) => `assets/${name}`,
  /** A regression or broken-workload issue written as a Markdown file (reports/issues/<fingerprint>.md). */
  issueFile: (fingerprint: string) => `issues/${slugify(fingerprint)}.md`,
};

/** The relative path from one site file to another (both relative to the site root). */
export function relativeHref(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  return [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}
