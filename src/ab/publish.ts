/**
 * What `ab run|report|comment|list` do once their flags are read: run or look up a test, analyse
 * it from its rows and put the report everywhere it is wanted; post a result file on its pull
 * request; list the recorded tests. The commands only parse flags and print what comes back.
 *
 * @module
 */
import type { LoadedConfig } from '../config/load.js';
import type { HistoryStore } from '../history/store.js';
import { writeJobSummary } from '../job-summary/job-summary.js';
import type { Log } from '../log.js';
import { writeAbOutputs, type AbOutputFiles } from './outputs.js';
import { pullRequestCommentMarker, renderPullRequestComment } from './pr-comment.js';
import { renderMarkdown, renderTerminal } from './render.js';
import { readAbResult } from './result-file.js';
import { reportAb, type AbReport } from './report.js';
import { runAb, type AbRunOptions } from './run.js';
import type { AbTestRecord } from './test-record.js';

export interface AbPublishOptions {
  /** The Markdown and result files wanted (absolute paths), each left out when undefined. */
  markdownFile?: string;
  resultFile?: string;
  /** The site's A/B folder (reports dir/ab); undefined: no site pages. */
  pagesDir?: string;
  /** Shows the report first (the terminal gets it before any file is written). */
  show(report: AbReport, terminal: string): void;
}

/** Analyses a recorded test from its rows, shows it, and writes it as Markdown, result JSON, site pages and the job summary. */
export async function publishAbReport(record: AbTestRecord, store: Pick<HistoryStore, 'ab'>, options: AbPublishOptions, log: Log): Promise<AbReport> {
  const report = reportAb(record, store.ab.abTestRows(record.id));
  const markdown = renderMarkdown(report.header, report.analysis);
  options.show(report, renderTerminal(report.header, report.analysis));
  const pages: AbOutputFiles['pages'] = options.pagesDir === undefined ? undefined : { dir: options.pagesDir, environments: record.config.environments };
  writeAbOutputs(report, markdown, { markdownFile: options.markdownFile, resultFile: options.resultFile, pages }, log);
  await writeJobSummary({ markdown, annotations: [], outputs: {} });
  return report;
}

/** Runs the A/B of the config's ab section, then publishes its report; returns the test as stored. `openStore` opens the history once the A/B is ready to record (`runAb`). */
export async function runAndPublishAb(loaded: LoadedConfig, openStore: () => Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>, log: Log, run: AbRunOptions, publish: AbPublishOptions): Promise<AbTestRecord> {
  const record = await runAb(loaded, openStore, log, run);
  await publishAbReport(record, openStore(), publish, log);
  return record;
}

/**
 * Posts the result file as the pull request's one A/B comment through `post`, the transport
 * (GitHub's upsert, which finds an earlier comment by the marker and edits it).
 */
export async function postAbResult<Posted>(resultFile: string, reportUrl: string | undefined, post: (marker: string, body: string) => Promise<Posted>): Promise<Posted> {
  return post(pullRequestCommentMarker, abResultComment(resultFile, reportUrl));
}

/** The comment the result file makes, checked as for posting: what `ab comment --dry-run` prints. */
export function abResultComment(resultFile: string, reportUrl: string | undefined): string {
  return renderPullRequestComment(readAbResult(resultFile), reportUrl);
}

/** The recorded tests, newest first: as data (without their schedules) and as one line each. */
export function listAbTests(store: Pick<HistoryStore, 'ab'>): { data: Omit<AbTestRecord, 'schedule'>[]; text: string } {
  const tests = store.ab.abTests<AbTestRecord>();
  const lines = tests.map((t) => `${t.id.slice(0, 8)}  ${t.createdAt.slice(0, 16)}  ${t.status.padEnd(10)} ${t.config.groups.map((g) => `${g.label}=${g.environment}`).join(' ')}`);
  return { data: tests.map(({ schedule: _, ...t }) => t), text: lines.join('\n') || 'no A/B test recorded' };
}
