/**
 * Writes the site: reads the history and detection results, derives the page data, renders the
 * pages and data files, bundles the assets, and removes what no longer belongs. Drill-downs of
 * finished runs never change, so a part of a run's drill-downs that is already on disk is kept
 * instead of re-read: a nightly rebuild reads drill-down timelines (cut as each repeat was
 * recorded) only for the new night, and at 5,000 workloads writes them, and the workload pages'
 * markup, in a worker thread while this one derives the pages' data and writes the rest
 * (`off-thread.ts`).
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { validate } from '../validation.js';
import { judgedNight, levelSegmentation, resolveSeriesPolicy, type DetectionPolicy, type Episode } from '../detect/index.js';
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { BisectRecord } from '../history/bisect-queries.js';
import type { Log } from '../log.js';
import { renderAbIndex, renderAbReport } from './ab.js';
import { abSitePageSchema, type AbSitePage } from '../ab/site-page-schema.js';
import { buildAssets } from './assets.js';
import { CompareCollector, type MetricDirectionOf } from './compare/data.js';
import { commitRow, deriveSite } from './data.js';
import { indexDetection, type DetectionFacts } from './detection.js';
import { indexDataParts } from './index-data.js';
import type { DrilldownPartJob } from './drilldown-parts.js';
import { startOffThread } from './off-thread.js';
import { ownCpuSeconds } from '../runner/proc.js';
import { runPointsValueCount } from '../history/workload-nights.js';
import { drilldownPart, sitePaths } from './paths.js';
import { fileIssues, publishedIssues } from './published.js';
import { dataEntryScript, dataScript } from './render.js';
import { writeSiteFile } from './site-files.js';
import { renderComparePage } from './render-compare.js';
import { splitBySize } from './data-parts.js';
import { renderIndex } from './render-index.js';
import { renderQualityPage } from './render-quality.js';
import { renderDrilldownPage, workloadPageMarkup } from './render-workload.js';
import { detectionQuality } from '../detect/quality.js';
import type { CommitRow, IndexRow, ReportRun, WorkloadPage } from './types.js';

export interface BuildSiteOptions {
  store: Pick<HistoryStore, 'file' | 'runs' | 'episodes' | 'bisects' | 'triage' | 'nights'>;
  /** The site's folder (reports/site); everything in it that the build does not write is removed. */
  outDir: string;
  /** A/B report JSON files (reports/ab); missing means none. */
  abDir?: string;
  /** Issues written as Markdown files (reports/issues): published with the site and linked; missing means none. */
  issuesDir?: string;
  /** Folders of issue files replays wrote (reports/replay/<from>_<to>): published and linked as a replay's; a file of `issuesDir` with the same name wins. */
  replayIssueDirs?: readonly string[];
  /** Detection's policy: the charts' baseline window and band are detection's own. */
  policy: DetectionPolicy;
  commitUrl(repo: string, sha: string): string | undefined;
  issueUrl(issue: number): string | undefined;
  /** The fingerprint an episode's issue file is named by (the issue subsystem's; passed in so pages do not import it). */
  episodeIssueFingerprint(episode: Episode): string;
  /** Nights of drill-down pages per series (plus the nights of markers). */
  drilldownNights?: number;
  /** Drill-downs and workload pages' markup written in a worker thread from this many of them on (`offThreadFrom`). */
  workerFrom?: number;
  now: Date;
  log: Log;
}

export interface BuildSummary {
  outDir: string;
  pages: number;
  files: number;
  bytes: number;
  largest: { path: string; bytes: number };
  workloads: number;
  series: number;
  drilldowns: { written: number; kept: number };
  abReports: number;
  /** Wall seconds of each step: derive counts each workload page's derive, done as the pages are written. */
  seconds: { read: number; derive: number; write: number; total: number };
  /** The process's CPU time (user + system, of every thread: the garbage collector's too) in each step. */
  cpuSeconds: { read: number; derive: number; write: number; total: number };
}

/** Builds the whole site into `outDir`. */
export async function buildSite(options: BuildSiteOptions): Promise<BuildSummary> {
  const started = performance.now();
  const cpuStarted = ownCpuSeconds();
  // Bundled by esbuild's own process while this thread reads and derives (awaited first where
  // they are written, this thread waited 0.1-0.2 s for them); a failure is that await's.
  const assets = buildAssets();
  assets.catch(() => {});
  const generatedAt = options.now.toISOString();
  const history = options.store.nights.reportHistory();
  const withSamples = options.store.nights.runsWithSamples();
  const detection = readDetection(options.store, options.policy, options.log);
  const events = options.store.triage.triageEvents();
  const read = performance.now();
  const cpuRead = ownCpuSeconds();
  const values = history.points.reduce((n, { stored }) => n + runPointsValueCount(stored), 0);
  options.log.debug(`read ${history.runs.length} runs, ${values} values in ${((read - started) / 1000).toFixed(1)} s`);

  const issueFiles = readIssueFiles(options.issuesDir);
  const replayFiles = new Map([...(options.replayIssueDirs ?? []).flatMap((dir) => [...readIssueFiles(dir)])].filter(([fingerprint]) => !issueFiles.has(fingerprint)));
  for (const [fingerprint, text] of replayFiles) issueFiles.set(fingerprint, text);
  const issues = publishedIssues(new Set(issueFiles.keys()), options.issueUrl, options.episodeIssueFingerprint, new Set(replayFiles.keys()));
  const threshold = (suite: string, workload: string, metric: string) => resolveSeriesPolicy(options.policy, { suite, workload, metric }).threshold;
  const quality = detectionQuality(detection.episodes, events, { now: options.now, threshold });
  const site = deriveSite(history, {
    detection: indexDetection(detection, issues),
    threshold,
    windowDays: options.policy.windowDays,
    minBaselineNights: options.policy.minBaselineNights,
    segmentation: levelSegmentation(options.policy),
    sparkNights: 30,
    drilldownNights: options.drilldownNights ?? 3,
    hasSamples: (runId, workload) => withSamples.has(`${runId}\u0000${workload}`),
    commitUrl: options.commitUrl,
    issues,
    generatedAt,
  });
  const derived = performance.now();
  const cpuDerived = ownCpuSeconds();

  const out = new SiteWriter(options.outDir);
  const runs = new Map(history.runs.map((run) => [run.id, run]));
  const commits = new Map(history.commits.map((c) => [`${c.repo}\u0000${c.sha}`, c]));
  // The parts of runs' drill-downs that the pages link, and how many links each.
  const linked = new Map<string, LinkedPart>();
  for (const link of site.drilldowns) {
    const run = runs.get(link.runId)!;
    const part = drilldownPart(link.workload);
    const dataPath = sitePaths.drilldownPart(run.suite, run.id, part);
    const seen = linked.get(dataPath);
    if (seen) seen.links++;
    else linked.set(dataPath, { run, part, links: 1 });
  }
  const commitsOfRun = new Map<string, CommitRow[]>();
  const drilldownJobs = drilldownsToWrite(out, linked, withSamples, options.store.nights.unfinishedRuns(), (run) => {
    let runCommits = commitsOfRun.get(run.id);
    if (runCommits === undefined) commitsOfRun.set(run.id, (runCommits = run.commits.map(({ repo, sha }) => commitRow(repo, sha, commits.get(`${repo}\u0000${sha}`), options))));
    return runCommits;
  });
  // First, so that a worker writes them while this thread writes the rest.
  const offThread = startOffThread({
    root: options.outDir, generatedAt, drilldowns: drilldownJobs.jobs, pages: site.pageCount,
    history: { file: options.store.file, runWorkload: (runId, workload) => options.store.nights.runWorkload(runId, workload) },
    workerFrom: options.workerFrom,
  });

  for (const [name, content] of await assets) out.write(sitePaths.asset(name), content);
  for (const [suite, table] of site.commitTables) out.write(sitePaths.commitData(suite), dataScript('NIGHTBENCH_COMMITS', table));

  // One read for every workload's bisects (a query per workload page was 0.3 s at 5,000 workloads).
  const bisects = new Map<string, BisectRecord[]>();
  for (const bisect of options.store.bisects.bisects()) {
    const key = `${bisect.suite}\u0000${bisect.workload}`;
    bisects.set(key, [...(bisects.get(key) ?? []), bisect]);
  }
  out.write(sitePaths.drilldown, renderDrilldownPage(generatedAt));
  // Each workload page's data written as soon as it is derived, its markup handed to be written
  // beside, and the page let go: only its values stay, for the compare page (with each series'
  // noise from its index row).
  const compareCollector = new CompareCollector(metricDirectionOf(options));
  let pageSeconds = 0;
  let pageCpuSeconds = 0;
  let pageCount = 0;
  const pages = site.pages();
  // Derived a few pages at a time, to time the derive apart (the process's CPU time costs a system
  // call: 10,000 of them, one around each page's derive, were 1.3 s under the profiler), and few
  // enough that a batch is written before a young-generation collection copies it: 8 pages a
  // batch against 50, alternated 3 times, 4.97, 4.90, 4.89 s against 5.19, 5.00, 5.08 s.
  const batch: { page: WorkloadPage; rows: IndexRow[] }[] = [];
  for (let done = false; !done; ) {
    const from = performance.now();
    const cpuFrom = ownCpuSeconds();
    while (batch.length < 8) {
      const next = pages.next();
      if ((done = next.done === true)) break;
      batch.push(next.value);
    }
    pageSeconds += (performance.now() - from) / 1000;
    pageCpuSeconds += ownCpuSeconds() - cpuFrom;
    // A batch's markup in one message to the worker, not one a page.
    offThread.writePages(batch.map(({ page }) => ({ markup: workloadPageMarkup(page), bisects: bisects.get(`${page.suite}\u0000${page.workload}`) ?? [] })));
    for (const { page, rows } of batch) {
      out.write(sitePaths.workloadData(page.suite, page.workload), dataScript('NIGHTBENCH_WORKLOAD', page));
      compareCollector.add(page, (metric, variantId) => rows.find((row) => row.metric === metric && row.variant.id === variantId)?.noise);
    }
    pageCount += batch.length;
    batch.length = 0;
  }
  const index = site.index();
  const indexParts = indexDataParts(index.rows);
  indexParts.forEach((part, i) => out.write(sitePaths.indexData(i), dataEntryScript('NIGHTBENCH_INDEX', String(i), part)));
  out.write(sitePaths.index, renderIndex(index, indexParts.length));

  const abReports = readAbReports(options.abDir, options.log);
  out.write(sitePaths.abIndex, renderAbIndex(abReports, generatedAt));
  const compare = compareCollector.finish(site.commitTables, index.machineNights ?? [], abReports, generatedAt);
  // The series are most of the compare page's data (4.6 MB at 20,000 series): they go in parts,
  // which the page joins back into `series`.
  const seriesParts = splitBySize(compare.data.series);
  out.write(sitePaths.compare, renderComparePage(generatedAt, seriesParts.length));
  out.write(sitePaths.compareData, dataScript('NIGHTBENCH_COMPARE', { ...compare.data, series: [] }));
  seriesParts.forEach((part, i) => out.write(sitePaths.compareSeries(i), dataEntryScript('NIGHTBENCH_COMPARE_SERIES', String(i), part)));
  for (const [night, values] of compare.nights) out.write(sitePaths.compareNight(night), dataEntryScript('NIGHTBENCH_COMPARE_NIGHTS', night, values));
  out.write(sitePaths.quality, renderQualityPage(quality, fileIssues(detection.episodes, issues), generatedAt, options.issueUrl));
  for (const [fingerprint, text] of issueFiles) out.write(sitePaths.issueFile(fingerprint), text);
  for (const report of abReports) out.write(sitePaths.abReport(report.id), renderAbReport(report, generatedAt));
  for (const file of await offThread.finish()) out.wrote(file.path, file.bytes);
  out.removeOthers();
  const written = performance.now();
  const cpuWritten = ownCpuSeconds();

  return {
    outDir: options.outDir, pages: out.pages, files: out.files, bytes: out.bytes, largest: out.largest,
    workloads: pageCount, series: index.rows.length, drilldowns: drilldownJobs.counts, abReports: abReports.length,
    seconds: { read: (read - started) / 1000, derive: (derived - read) / 1000 + pageSeconds, write: (written - derived) / 1000 - pageSeconds, total: (written - started) / 1000 },
    cpuSeconds: { read: cpuRead - cpuStarted, derive: cpuDerived - cpuRead + pageCpuSeconds, write: cpuWritten - cpuDerived - pageCpuSeconds, total: cpuWritten - cpuStarted },
  };
}

/** A part of a run's drill-downs that pages link, and how many links. */
interface LinkedPart {
  run: ReportRun;
  part: number;
  links: number;
}

/**
 * The parts of runs' drill-downs that the pages link (`linked`, by path) and must be written. A part
 * holds the drill-down of every workload of its run that falls in it and has samples, linked now or
 * not, so a part kept from an earlier build never lacks one a later build links (a marker put on an
 * older night). A finished run's part already on disk is kept, unless it was written while the run
 * was still being written (`drilldownUnfinished` is then on disk beside it).
 */
function drilldownsToWrite(
  out: SiteWriter,
  linked: ReadonlyMap<string, LinkedPart>,
  withSamples: ReadonlySet<string>,
  unfinished: ReadonlySet<string>,
  commitsOf: (run: ReportRun) => CommitRow[],
): { jobs: DrilldownPartJob[]; counts: BuildSummary['drilldowns'] } {
  const counts = { written: 0, kept: 0 };
  const runs = new Map([...linked.values()].map(({ run }) => [run.id, run]));
  // Each linked run's workloads with samples, by part.
  const workloadsOf = new Map<string, string[][]>();
  for (const pair of withSamples) {
    const [runId, workload] = pair.split('\u0000') as [string, string];
    if (!runs.has(runId)) continue;
    let parts = workloadsOf.get(runId);
    if (parts === undefined) workloadsOf.set(runId, (parts = []));
    (parts[drilldownPart(workload)] ??= []).push(workload);
  }
  const rewrite = new Set<string>();
  for (const run of runs.values()) {
    const marker = sitePaths.drilldownUnfinished(run.suite, run.id);
    if (unfinished.has(run.id) || out.exists(marker)) rewrite.add(run.id);
    if (unfinished.has(run.id)) out.write(marker, 'The drill-downs beside this file were written while their run was: the next build writes them again.\n');
  }
  const jobs: DrilldownPartJob[] = [];
  for (const [dataPath, { run, part, links }] of linked) {
    if (!rewrite.has(run.id) && out.keep(dataPath)) {
      counts.kept += links;
      continue;
    }
    // A linked workload has samples (data.ts links no other), so its part is here. In name order:
    // a part's bytes do not depend on the order the history gave.
    const workloads = workloadsOf.get(run.id)![part]!.sort();
    jobs.push({ path: dataPath, run, workloads, commits: commitsOf(run) });
    counts.written += workloads.length;
  }
  return { jobs, counts };
}

/** A metric's direction as detection resolves it (config, then the suite's declaration), or none where the suite says so. */
function metricDirectionOf(options: BuildSiteOptions): MetricDirectionOf {
  const declared = new Map(options.store.runs.metricDirections().map((d) => [[d.suite, d.workload, d.metric].join('\u0000'), d.direction]));
  return (suite, workload, metric) => {
    const said = declared.get([suite, workload, metric].join('\u0000'));
    if (said === 'none' && options.policy.directions[metric] === undefined) return 'none';
    return resolveSeriesPolicy(options.policy, { suite, workload, metric }, said === 'none' ? undefined : said).direction;
  };
}

/** The Markdown issue files by fingerprint (their file name). */
function readIssueFiles(dir: string | undefined): Map<string, string> {
  if (!dir || !existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).filter((file) => /^[0-9a-f]{16}\.md$/.test(file)).map((file) => [file.slice(0, -3), readFileSync(path.join(dir, file), 'utf8')]));
}

/** A/B reports from their folder; a file that does not validate is skipped with a warning, not fatal. */
function readAbReports(dir: string | undefined, log: Log): AbSitePage[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const where = path.join(dir, file);
      try {
        return [validate(abSitePageSchema, JSON.parse(readFileSync(where, 'utf8')), where)];
      } catch (error) {
        log.warn(`skipping A/B report ${where}: ${error instanceof NightbenchError ? error.message : (error as Error).message}`);
        return [];
      }
    });
}

/** Writes files under the site folder and remembers them, so stale ones can be removed afterwards. */
class SiteWriter {
  private readonly owned = new Set<string>();
  private readonly madeDirs = new Set<string>();
  pages = 0;
  files = 0;
  bytes = 0;
  largest = { path: '', bytes: 0 };

  constructor(private readonly root: string) {}

  write(relative: string, content: string | Buffer): void {
    this.count(relative, writeSiteFile(this.root, relative, content, this.madeDirs));
  }

  /** Counts a file another thread wrote for the build (`off-thread.ts`), so it is not removed. */
  wrote(relative: string, bytes: number): void {
    this.count(relative, bytes);
  }

  /** Keeps a file from an earlier build if it exists; false when it must be written. */
  keep(relative: string): boolean {
    const stat = statSync(path.join(this.root, relative), { throwIfNoEntry: false });
    if (stat === undefined) return false;
    this.count(relative, stat.size);
    return true;
  }

  /** Whether a file is on disk, without keeping it: a file that is neither kept nor written is removed. */
  exists(relative: string): boolean {
    return existsSync(path.join(this.root, relative));
  }

  removeOthers(dir = this.root): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        this.removeOthers(full);
        if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
      } else if (!this.owned.has(path.relative(this.root, full))) {
        rmSync(full);
      }
    }
  }

  private count(relative: string, bytes: number): void {
    if (this.owned.has(relative)) return;
    this.owned.add(relative);
    this.files++;
    if (relative.endsWith('.html')) this.pages++;
    this.bytes += bytes;
    if (bytes > this.largest.bytes) this.largest = { path: relative, bytes };
  }
}

/**
 * Detection's view of the history without changing it: the latest night's verdicts (as detection
 * stored them, or judged again), and the stored episodes give every regression and recovery so far.
 */
function readDetection(store: Pick<HistoryStore, 'runs' | 'episodes' | 'bisects' | 'triage' | 'nights'>, policy: DetectionPolicy, log: Log): DetectionFacts {
  const tonight = judgedNight(store, policy);
  if (tonight.night !== undefined) log.debug(tonight.stored ? `the verdicts of ${tonight.night} as detect stored them` : `${tonight.night} judged again: no stored verdicts of it hold (another night, policy or version, or the history changed since)`);
  return { night: tonight.night, verdicts: tonight.verdicts, episodes: store.episodes.episodes(), machineNights: [...store.episodes.machineNights({ machineOnly: true }), ...(tonight.machine ? [tonight.machine] : [])] };
}
