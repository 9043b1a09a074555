/**
 * Regressed series grouped into issues: one issue per suite and suspect range, however many
 * workloads and metrics that range slowed. Pure.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { Comparability } from '../history/types.js';

/** One repository's suspect range: last good commit (exclusive) .. first bad commit. */
export interface SuspectRange {
  repo: string;
  from: string;
  to: string;
}

export type SeriesState = 'open' | 'still-regressed' | 'recovered' | 'accepted';

/** One regressed series (workload x metric in one environment) as an issue shows it. */
export interface IssueSeries {
  episodeId: string;
  workload: string;
  metric: string;
  unit: string | null;
  environment: Comparability;
  state: SeriesState;
  baselineMedian: number;
  newMedian: number;
  /** `newMedian / baselineMedian - 1`. */
  change: number;
  pValue?: number;
  /** Relative noise of one nightly median in the baseline. */
  noise?: number;
}

/** What one issue is about. */
export interface IssueGroup {
  fingerprint: string;
  suite: string;
  lastGoodNight: string;
  firstBadNight: string;
  /** In the target's repository order; the first is the primary repository. */
  ranges: SuspectRange[];
  series: IssueSeries[];
}

/**
 * The fingerprint of an issue: a hash of the suite and its suspect range per repository. The
 * same range on a rerun, a retry or the next night gives the same fingerprint.
 */
export function issueFingerprint(suite: string, ranges: readonly SuspectRange[]): string {
  const key = JSON.stringify([suite, ...[...ranges].sort((a, b) => a.repo.localeCompare(b.repo)).map((r) => [r.repo, r.from, r.to])]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}
