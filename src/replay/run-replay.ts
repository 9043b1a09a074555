/**
 * A replay: the nights of a history judged again, oldest first, as the nightlies would have
 * judged them, with the issues each night would have opened, updated and closed written as
 * files (never GitHub). The history is read and grouped once; each night is judged on its lookback's slice. It talks
 * to the rest through narrow ports, so the command only binds the real ones.
 *
 * @module
 */
import type { DetectionReport } from '../detect/run.js';
import type { Episode } from '../detect/episodes.js';
import { groupWorkloadNights, seriesOfNights, type Series } from '../detect/series.js';
import { formatCount, formatSeconds } from '../format/index.js';
import type { IssueAction } from '../issues/plan.js';
import type { WorkloadNight } from '../history/workload-nights.js';
import type { Log } from '../log.js';
import { judgeNightsInOrder } from './judge-nights.js';
import { recordNightActions, type ReplayedIssue, type ReplayLedger } from './ledger.js';
import { replayTotals, type ReplayTotals } from './totals.js';

export interface ReplayPorts {
  /** The nightly workload nights from `since` on, oldest night first: read once, as they are consumed. */
  workloadNights(since: string): Iterable<WorkloadNight>;
  /** Stored detection of one night, given the series of a range that holds its lookback. */
  judgeNight(night: string, series: readonly Series[]): DetectionReport;
  markReplayed(episodeIds: number[]): void;
  /** The night's issues planned and written as files; the actions taken. */
  publishNight(report: DetectionReport): Promise<IssueAction[]>;
  episodes(ids: readonly number[]): Episode[];
  /** Episodes already stored whose last night is `night` or later: detection leaves those nights as they are. */
  episodesReaching(night: string): number;
  /** The oldest night detection reads to judge `night`. */
  lookbackStart(night: string): string;
  /** Milliseconds, for the progress and the time taken. */
  now(): number;
  log: Log;
}

export interface ReplayOutcome {
  from: string;
  to: string;
  /** Nights of the range the history holds, judged in order. */
  nights: number;
  /** Values of those nights. */
  values: number;
  series: number;
  seconds: number;
  episodesFound: number;
  issues: ReplayedIssue[];
  totals: ReplayTotals;
}

/** Progress lines on stderr over the whole replay, whatever its length. */
const progressLines = 20;

export async function runReplay(ports: ReplayPorts, range: { from: string; to: string }): Promise<ReplayOutcome> {
  const { log } = ports;
  const started = ports.now();
  // Read and grouped once: each night is judged on its lookback's slice of these series.
  const series = groupWorkloadNights(ports.workloadNights(ports.lookbackStart(range.from)), { from: ports.lookbackStart(range.from), to: range.to });
  const inRange = seriesOfNights(series, range.from, range.to);
  const nights = [...new Set(inRange.flatMap((one) => one.points.map((p) => p.night)))].sort();
  const values = inRange.reduce((sum, one) => sum + one.points.reduce((n, p) => n + p.values.length, 0), 0);
  log.info(`replay: ${nights.length} nights with results from ${range.from} to ${range.to}, ${inRange.length} series, ${values} values`);
  const stored = ports.episodesReaching(range.from);
  if (stored > 0) {
    log.warn(`replay: ${formatCount(stored, 'episode')} of the history already reach ${range.from} or later (live detection or an earlier replay): detection does not judge their nights again, so their issues are not replayed; replay a copy without them to see everything`);
  }
  const ledger: ReplayLedger = new Map();
  const every = Math.max(1, Math.ceil(nights.length / progressLines));
  let report: DetectionReport | undefined;
  const judged = await judgeNightsInOrder(nights, {
    judgeNight: (night) => {
      report = ports.judgeNight(night, series);
      return report.openedIds;
    },
    markFound: (ids) => ports.markReplayed(ids),
    afterNight: async (night, index) => {
      recordNightActions(ledger, night, await ports.publishNight(report!));
      if ((index + 1) % every === 0 || index + 1 === nights.length) {
        const elapsed = (ports.now() - started) / 1000;
        const left = (elapsed / (index + 1)) * (nights.length - index - 1);
        log.info(`replay: ${night} (${index + 1}/${nights.length}), ${formatCount(ledger.size, 'issue')} so far, about ${formatSeconds(left)} left`);
      }
    },
  }, 'replay');
  const { issues, totals } = replayTotals([...ledger.values()], ports.episodes(judged.episodesFound), inRange);
  return {
    from: range.from, to: range.to, nights: judged.judged.length, values, series: inRange.length,
    seconds: (ports.now() - started) / 1000, episodesFound: judged.episodesFound.length, issues, totals,
  };
}
