/**
 * A backfill: the nights of a plan recorded oldest first, each as that night's nightly run (the
 * nightly's own pipeline, with the night's cut-off and no detection), then judged once, night by
 * night as detection would have run live. It talks to the rest through narrow ports, so a test
 * drives it with fakes and the command only binds the real ones.
 *
 * @module
 */
import { formatCount, formatHours } from '../format/index.js';
import type { CommitInfo } from '../history/types.js';
import type { Log } from '../log.js';
import type { RunReport } from '../runner/execute.js';
import { judgeNightsInOrder } from '../replay/judge-nights.js';
import { estimateSecondsLeft, type BackfillPlan } from './plan.js';

export interface BackfillPorts {
  /** Records one night as its nightly run; the reports of its suites. */
  recordNight(night: string): Promise<RunReport[]>;
  /** The commits a night tests (for progress and --dry-run); empty for an installed target. */
  commitsOf(night: string): Promise<CommitInfo[]>;
  /** Detection of one night, stored; the ids of the episodes it opened. */
  judgeNight(night: string): number[];
  markFoundInBackfill(episodeIds: number[]): void;
  /** Issues for what is still open after the last night (--issues). */
  publishIssues(lastNight: string): Promise<void>;
  interrupted(): boolean;
  /** Milliseconds, for the estimate of the time left. */
  now(): number;
  log: Log;
}

export interface BackfillOptions {
  /** False: judge only what the history holds (a workflow's final job, after merging the shards). */
  record: boolean;
  /** Record only (a shard of a workflow, or --no-judge): the merged history is judged once, later. */
  judge: boolean;
  issues: boolean;
}

export interface RecordedNight {
  night: string;
  commits: Record<string, string>;
  runs: RunReport[];
  seconds: number;
}

export interface BackfillOutcome {
  recorded: RecordedNight[];
  skipped: string[];
  /** Nights whose every suite's run failed: recorded as failed, left for the maintainer. */
  failed: string[];
  /** Nights of the plan still not recorded: the backfill was interrupted, or told not to record. */
  remaining: string[];
  interrupted: boolean;
  /** Nights judged, and the episodes that judging opened (marked as found in a backfill). */
  judged: string[];
  episodesFound: number[];
}

export async function runBackfill(ports: BackfillPorts, plan: BackfillPlan, options: BackfillOptions): Promise<BackfillOutcome> {
  const { log } = ports;
  const outcome: BackfillOutcome = { recorded: [], skipped: plan.skipped, failed: [], remaining: [], interrupted: false, judged: [], episodesFound: [] };
  if (plan.skipped.length > 0) log.info(`backfill: ${plan.skipped.length} of ${plan.nights.length} nights already recorded, skipped (--redo records them again)`);
  const durations: number[] = [];
  for (const [index, night] of (options.record ? plan.toRecord : []).entries()) {
    if (ports.interrupted()) break;
    const commits = Object.fromEntries((await ports.commitsOf(night)).map((c) => [c.repo, c.sha.slice(0, 10)]));
    const left = estimateSecondsLeft(durations, plan.toRecord.length - index);
    log.info(`backfill: night ${night} (${index + 1}/${plan.toRecord.length})${describeCommits(commits)}${left === undefined ? '' : `, about ${describeSeconds(left)} left`}`);
    const started = ports.now();
    const runs = await ports.recordNight(night);
    const seconds = (ports.now() - started) / 1000;
    if (ports.interrupted()) break;
    durations.push(seconds);
    outcome.recorded.push({ night, commits, runs, seconds });
    if (runs.length > 0 && runs.every((r) => r.status === 'failed')) outcome.failed.push(night);
  }
  const recorded = new Set([...plan.skipped, ...outcome.recorded.map((r) => r.night)]);
  outcome.remaining = plan.toRecord.filter((night) => !recorded.has(night));
  outcome.interrupted = options.record && outcome.remaining.length > 0;
  if (outcome.interrupted) {
    log.warn(`backfill interrupted: ${outcome.recorded.length} nights recorded, ${outcome.remaining.length} left; the same command goes on from ${outcome.remaining[0]}`);
    return outcome;
  }
  if (outcome.remaining.length > 0) log.warn(`${outcome.remaining.length} nights of the range are not in the history (${outcome.remaining.join(', ')}); judging the others`);
  if (!options.judge) return outcome;
  // Judged as it would have been live: night by night, oldest first, no issue in between.
  const judged = await judgeNightsInOrder(plan.nights, { judgeNight: ports.judgeNight, markFound: ports.markFoundInBackfill }, 'backfill');
  outcome.judged = judged.judged;
  outcome.episodesFound = judged.episodesFound;
  log.info(`backfill: judged ${outcome.judged.length} nights, ${formatCount(outcome.episodesFound.length, 'episode')} found`);
  const last = plan.nights.at(-1);
  if (options.issues && last !== undefined) await ports.publishIssues(last);
  return outcome;
}

function describeCommits(commits: Record<string, string>): string {
  const entries = Object.entries(commits);
  return entries.length === 0 ? '' : `: ${entries.map(([repo, sha]) => `${repo} ${sha}`).join(', ')}`;
}

/** "40 s", "12 min", "3.5 h": an estimate needs no more. */
export function describeSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  return formatHours(seconds / 3600);
}
