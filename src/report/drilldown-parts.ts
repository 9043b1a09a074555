/**
 * The parts of runs' drill-downs a build writes (`sitePaths.drilldownPart`), in the build's own
 * thread or, when a night brings many, in a worker thread while the build writes every other page:
 * at 5,000 workloads a night's new parts took 0.85 s of the increment's main thread to read, build
 * and write (bench/README.md), and no other page waits for them.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { RepeatFacts } from '../history/report-rows.js';
import { runInThread } from '../threads.js';
import { buildDrilldown } from './drilldown.js';
import { jsonRecordEntryScript } from './render.js';
import { writeSiteFile } from './site-files.js';
import type { CommitRow, ReportRun } from './types.js';

/** One part to write: where, its run, the run's workloads in it (in name order) and the run's commits as the pages show them. */
export interface DrilldownPartJob {
  path: string;
  run: ReportRun;
  workloads: string[];
  commits: CommitRow[];
}

/** A file written, relative to the site's folder, and its size. */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/** What the worker is handed: plain data, cloned into it. */
export interface DrilldownWorkerData {
  historyFile: string;
  root: string;
  jobs: DrilldownPartJob[];
}

type RunWorkload = (runId: string, workload: string) => RepeatFacts[];

/**
 * Drill-downs written in a worker from this many on: its start costs about 0.1 s of the compiled
 * build (0.3 s through the TypeScript loader), a drill-down about 0.17 ms.
 */
export const drilldownWorkerFrom = 1000;

/**
 * Writes the parts under `root` and resolves with the files written: in a worker thread when there
 * are at least `workerFrom` drill-downs, a second core and a history file the worker can open on
 * its own, else here. Start it before the build's other writes, await it before their removal of
 * files the build did not write.
 */
export function writeDrilldownParts(
  root: string,
  jobs: DrilldownPartJob[],
  history: { file: string; runWorkload: RunWorkload },
  workerFrom = drilldownWorkerFrom,
): Promise<WrittenFile[]> {
  const drilldowns = jobs.reduce((n, job) => n + job.workloads.length, 0);
  if (drilldowns === 0 || drilldowns < workerFrom || availableParallelism() < 2 || !existsSync(history.file)) {
    return Promise.resolve(writeDrilldownPartsHere(root, jobs, history.runWorkload));
  }
  return runInThread<WrittenFile[]>(new URL('./drilldown-worker', import.meta.url), { historyFile: history.file, root, jobs } satisfies DrilldownWorkerData);
}

/** Reads, builds and writes the parts in this thread. */
export function writeDrilldownPartsHere(root: string, jobs: readonly DrilldownPartJob[], runWorkload: RunWorkload): WrittenFile[] {
  const madeDirs = new Set<string>();
  return jobs.map((job) => {
    const bytes = drilldownPartBytes(job, runWorkload);
    writeSiteFile(root, job.path, bytes, madeDirs, true);
    return { path: job.path, bytes: bytes.length };
  });
}

/** A part's file: a data script that adds the run's drill-downs of the part's workloads to the page's record. */
function drilldownPartBytes(job: DrilldownPartJob, runWorkload: RunWorkload): Buffer {
  return jsonRecordEntryScript('NIGHTBENCH_DRILLDOWN', job.run.id, job.workloads.map((workload) => [workload, buildDrilldown(job.run, workload, runWorkload(job.run.id, workload), job.commits)] as const));
}
