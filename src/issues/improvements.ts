/**
 * `github.improvements: comment`: an improvement opens no issue of its own; it is noted on the
 * issue of the latest earlier regression of the same series (open or closed), where it may well
 * be the fix. Without such an issue nothing is posted: `detect`, the summary and the pages still
 * show the improvement. Pure: episodes and found issues in, actions out; `publish.ts` finds the
 * issues and carries the actions out with the others.
 *
 * @module
 */
import { activeStates } from '../detect/episodes.js';
import type { Episode } from '../detect/index.js';
import { episodeIssueFingerprint, groupEpisodes, type IssueGroup, type ReportedEpisode, type SeriesReach } from './group.js';
import type { IssueAction } from './plan.js';
import type { TrackedIssue } from './tracker.js';

/** One improvement and where it could be noted. */
export interface ImprovementTarget {
  /** The improvement as a group of its own series. */
  group: IssueGroup;
  /** The improvement episode's fingerprint, which the note carries so that it is posted once. */
  improvement: string;
  /** Fingerprints of the issues of the series' earlier regressions, latest first. */
  issues: string[];
}

/**
 * The targets of the active improvements among `reported`: `episodes` (every stored one, open or
 * not) give each its series' earlier regressions. A series is its series key: the same workload
 * and metric in the same environment (a regression on another cluster shape is another series).
 */
export function improvementTargets(
  reported: readonly ReportedEpisode[],
  episodes: readonly Episode[],
  repositories: readonly string[],
  detectable: ReadonlyMap<string, SeriesReach> = new Map(),
): ImprovementTarget[] {
  return reported
    .filter((episode) => episode.kind === 'improvement' && activeStates.includes(episode.state))
    .map((episode) => ({
      group: groupEpisodes([episode], repositories, detectable)[0]!,
      improvement: episode.fingerprint,
      issues: episodes
        .filter((other) => other.kind === 'regression' && other.seriesKey === episode.seriesKey && other.firstBad.night < episode.firstBad.night)
        .sort((a, b) => b.firstBad.night.localeCompare(a.firstBad.night))
        .map((regression) => episodeIssueFingerprint(regression)),
    }));
}

/** Why an improvement is not noted anywhere: said in the log and the plan. */
export const noRegressionIssue = 'no earlier regression of this series has an issue: shown only in detect, the summary and the pages';

/** A note on the latest issue found, unless that issue already has it; a skip when there is none. */
export function planImprovementNotes(targets: readonly ImprovementTarget[], existing: readonly TrackedIssue[]): IssueAction[] {
  const byFingerprint = new Map(existing.map((issue) => [issue.fingerprint, issue]));
  return targets.map((target): IssueAction => {
    const issue = target.issues.map((fingerprint) => byFingerprint.get(fingerprint)).find((found) => found !== undefined);
    if (!issue) return { kind: 'skip', group: target.group, reason: noRegressionIssue };
    if (issue.notedImprovements.includes(target.improvement)) return { kind: 'skip', group: target.group, issue, reason: 'improvement already noted' };
    return { kind: 'note', group: target.group, issue, improvement: target.improvement };
  });
}
