/**
 * What the build writes beside its own thread while that one derives the pages' data and writes
 * the rest: the new drill-down parts (`drilldown-parts.ts`; at 5,000 workloads a night's 5,000
 * drill-downs took 0.85 s to read, build and write) and each workload page's markup (5,000 took
 * 0.6 s to render and write on a loaded machine, from the part of each page that it shows:
 * `WorkloadPageMarkup`). No other file waits for them. In a worker thread with its own read-only
 * connection to the history when they are many, there is a second core and a history file it can
 * open; else here, as handed over.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { BisectRecord } from '../history/bisect-queries.js';
import { startThread } from '../threads.js';
import { writeDrilldownParts, type DrilldownPartJob, type RunWorkload } from './drilldown-parts.js';
import { sitePaths } from './paths.js';
import { renderWorkloadPage, type WorkloadPageMarkup } from './render-workload.js';
import { writeSiteFile, type WrittenFile } from './site-files.js';

/** A workload page's markup to write, with the workload's bisects it lists. */
export interface WorkloadMarkupJob {
  markup: WorkloadPageMarkup;
  bisects: BisectRecord[];
}

/** The writer beside the build's thread, started before the build's other writes. */
export interface OffThreadWriter {
  /** Writes these workload pages' markup (here at once, or queued for the worker). */
  writePages(jobs: WorkloadMarkupJob[]): void;
  /** Every file written, once all are: await it before removing the files the build did not write. */
  finish(): Promise<WrittenFile[]>;
}

/** What the worker is started with: plain data, cloned into it. Then it is handed the pages' markup. */
export interface OffThreadData {
  historyFile: string;
  root: string;
  generatedAt: string;
  drilldowns: DrilldownPartJob[];
}

/**
 * In a worker from this many drill-downs and pages together on: its start costs about 0.1 s of
 * the compiled build (0.3 s through the TypeScript loader), a drill-down about 0.17 ms, a page's
 * markup about 0.1 ms.
 */
export const offThreadFrom = 1000;

/**
 * Starts writing the drill-down parts under `root`, and takes the workload pages' markup as the
 * build derives them (`pages` of them in all).
 */
export function startOffThread(options: {
  root: string;
  generatedAt: string;
  drilldowns: DrilldownPartJob[];
  pages: number;
  history: { file: string; runWorkload: RunWorkload };
  workerFrom?: number;
}): OffThreadWriter {
  const { root, generatedAt, drilldowns, history } = options;
  const count = drilldowns.reduce((n, job) => n + job.workloads.length, 0) + options.pages;
  if (count === 0 || count < (options.workerFrom ?? offThreadFrom) || availableParallelism() < 2 || !existsSync(history.file)) {
    const madeDirs = new Set<string>();
    const written = writeDrilldownParts(root, drilldowns, history.runWorkload, madeDirs);
    return {
      writePages: (jobs) => written.push(...writeWorkloadMarkup(root, generatedAt, jobs, madeDirs)),
      finish: () => Promise.resolve(written),
    };
  }
  const thread = startThread<WrittenFile[], WorkloadMarkupJob[]>(new URL('./off-thread-worker', import.meta.url), { historyFile: history.file, root, generatedAt, drilldowns } satisfies OffThreadData);
  return { writePages: (jobs) => thread.post(jobs), finish: () => thread.finish() };
}

/** Renders and writes the pages' markup under `root`; `madeDirs` as `writeSiteFile` takes it. */
export function writeWorkloadMarkup(root: string, generatedAt: string, jobs: readonly WorkloadMarkupJob[], madeDirs: Set<string>): WrittenFile[] {
  return jobs.map(({ markup, bisects }) => {
    const file = sitePaths.workloadPage(markup.suite, markup.workload);
    return { path: file, bytes: writeSiteFile(root, file, renderWorkloadPage(markup, generatedAt, bisects), madeDirs) };
  });
}
