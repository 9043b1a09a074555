/**
 * The parts of runs' drill-downs a build writes (`sitePaths.drilldownPart`): each run's
 * drill-downs of the part's workloads, read from the history, built and written as one file.
 * Written beside the build's own thread when a night brings many (`off-thread.ts`).
 *
 * @module
 */
import type { RepeatFacts } from '../history/report-rows.js';
import { buildDrilldown } from './drilldown.js';
import { jsonRecordEntryScript } from './render.js';
import { writeSiteFile, type WrittenFile } from './site-files.js';
import type { CommitRow, ReportRun } from './types.js';

/** One part to write: where, its run, the run's workloads in it (in name order) and the run's commits as the pages show them. */
export interface DrilldownPartJob {
  path: string;
  run: ReportRun;
  workloads: string[];
  commits: CommitRow[];
}

/** A run's repeats of a workload, as the history gives them. */
export type RunWorkload = (runId: string, workload: string) => RepeatFacts[];

/** Reads, builds and writes the parts under `root`; `madeDirs` as `writeSiteFile` takes it. */
export function writeDrilldownParts(root: string, jobs: readonly DrilldownPartJob[], runWorkload: RunWorkload, madeDirs: Set<string>): WrittenFile[] {
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
