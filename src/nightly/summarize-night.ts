import { requireHistoryFile } from '../history/files.js';
import { writeJobSummary, type JobSummary } from '../job-summary/job-summary.js';
import { nightAnnotations, nightOutputs, renderNightSummary } from '../job-summary/night-summary.js';
import { collectNightSummary } from '../job-summary/summary-data.js';
import { openConfiguredHistory, type NightContext } from './context.js';

export interface NightSummaryRequest {
  /** Default: the latest nightly night in the history. */
  night?: string;
  /** The night was split into this many shards: those that recorded nothing are named. */
  expectedShards?: number;
  reportUrl?: string;
  /** False: runs and failures only (a shard's database has no baseline). */
  detect: boolean;
}

/** A night of the history as Markdown, annotations and step outputs; in a GitHub Actions job also its job summary. */
export async function summarizeNight(context: NightContext, request: NightSummaryRequest): Promise<JobSummary> {
  requireHistoryFile(context.historyPath, 'summary');
  const store = openConfiguredHistory(context);
  try {
    const input = collectNightSummary(store, { night: request.night, detection: context.loaded.config.detection, detect: request.detect, expectedShards: request.expectedShards, reportUrl: request.reportUrl });
    const summary = { markdown: renderNightSummary(input), annotations: nightAnnotations(input), outputs: nightOutputs(input) };
    if (await writeJobSummary(summary)) context.log.info('wrote the job summary');
    return summary;
  } finally {
    store.close();
  }
}
