/**
 * What a replay's nights did to the issues, night after night: the issues it would have opened,
 * the nights it would have commented on them and the night it would have closed them. Pure: the
 * publishing's planned actions in, one record per issue out.
 *
 * @module
 */
import { daysBetween } from '../night.js';
import type { IssueAction } from '../issues/plan.js';
import type { SuspectRange } from '../issues/group.js';

export interface ReplayedSeries {
  episodeId?: number;
  workload: string;
  metric: string;
  environment: string;
  /** The latest change the issue reported, `new / baseline - 1`. */
  change: number;
  /** The change the issue opened with: a regression that has since mostly recovered still reads as one. */
  openedChange: number;
}

export interface ReplayedIssue {
  fingerprint: string;
  suite: string;
  lastGoodNight: string;
  firstBadNight: string;
  ranges: SuspectRange[];
  series: ReplayedSeries[];
  openedNight: string;
  /** Nights it would have been commented on (still regressed). */
  updatedNights: string[];
  /** The night it would have been closed (every series recovered); absent while still open. */
  closedNight?: string;
  /** Nights from opening to closing, or to the replay's last night while still open. */
  nightsOpen: number;
  /** Filled once the replay is over (see totals.ts); undefined when too close to the history's ends to tell. */
  transient?: boolean;
}

/** The issues so far, by fingerprint, in the order they were opened. */
export type ReplayLedger = Map<string, ReplayedIssue>;

/** Adds one night's planned actions to the ledger, and ages the issues still open. */
export function recordNightActions(ledger: ReplayLedger, night: string, actions: readonly IssueAction[]): void {
  for (const action of actions) {
    const { group } = action;
    if (action.kind === 'open' && !ledger.has(group.fingerprint)) {
      ledger.set(group.fingerprint, {
        fingerprint: group.fingerprint, suite: group.suite, lastGoodNight: group.lastGoodNight, firstBadNight: group.firstBadNight, ranges: group.ranges,
        series: [], openedNight: night, updatedNights: [], nightsOpen: 0,
      });
    }
    const issue = ledger.get(group.fingerprint);
    if (issue === undefined || issue.closedNight !== undefined) continue;
    if (action.kind === 'comment') issue.updatedNights.push(night);
    if (action.kind === 'close') issue.closedNight = night;
    // A closing lists the series as recovered: the issue keeps the changes it reported.
    if (action.kind === 'open' || action.kind === 'comment') issue.series = group.series.map((series) => replayedSeries(series, issue.series));
  }
  for (const issue of ledger.values()) issue.nightsOpen = daysBetween(issue.openedNight, issue.closedNight ?? night);
}

function replayedSeries(series: IssueAction['group']['series'][number], before: readonly ReplayedSeries[]): ReplayedSeries {
  const environment = series.environment.environmentName;
  const opened = before.find((s) => s.workload === series.workload && s.metric === series.metric && s.environment === environment);
  return {
    ...(series.episodeId === undefined ? {} : { episodeId: series.episodeId }),
    workload: series.workload, metric: series.metric, environment, change: series.change, openedChange: opened?.openedChange ?? series.change,
  };
}
