/**
 * What to do about each issue group tonight, decided from the groups and the issues found by
 * fingerprint: open, comment, close, accept (a maintainer closed it) or skip. Pure: the text is
 * rendered when the plan is carried out.
 *
 * @module
 */
import { shortSha } from '../format/index.js';
import type { IssueGroup } from './group.js';
import type { TrackedIssue } from './tracker.js';

export type IssueAction =
  | { kind: 'open'; group: IssueGroup }
  | { kind: 'comment'; group: IssueGroup; issue: TrackedIssue }
  | { kind: 'close'; group: IssueGroup; issue: TrackedIssue }
  /** A maintainer closed the issue: its episodes are accepted and the issue left alone. */
  | { kind: 'accept'; group: IssueGroup; issue: TrackedIssue }
  /**
   * An improvement (a one-series group) noted on the issue of the series' latest earlier
   * regression, where it may be the fix (`github.improvements: comment`, see `improvements.ts`).
   * `improvement` is the improvement episode's fingerprint.
   */
  | { kind: 'note'; group: IssueGroup; issue: TrackedIssue; improvement: string }
  /** An opening whose confirmation rerun did not reproduce it (`github.confirm`): its episodes end unconfirmed, nothing is filed. */
  | { kind: 'unconfirmed'; group: IssueGroup }
  | { kind: 'skip'; group: IssueGroup; issue?: TrackedIssue; reason: string };

/**
 * One action per group, for the report of `night`. Rules, in order: an issue a maintainer
 * closed is never reopened (accept); one nightbench closed stays closed; a night already
 * reported adds nothing (reruns, retries); every series recovered or no longer measured
 * (retired) closes an open issue; a still-regressed series measured that night comments on it
 * (a night none was measured on says nothing); a group without an issue opens one unless it
 * has already recovered.
 */
export function planIssues(groups: readonly IssueGroup[], existing: readonly TrackedIssue[], night: string): IssueAction[] {
  const byFingerprint = new Map(existing.map((issue) => [issue.fingerprint, issue]));
  return groups.map((group): IssueAction => {
    const issue = byFingerprint.get(group.fingerprint);
    const active = group.series.filter((s) => s.state === 'open' || s.state === 'still-regressed');
    // Back within noise, or no longer measured (retired): nothing is left to look at.
    const allEnded = group.series.every((s) => s.state === 'recovered' || s.state === 'retired');
    if (!issue) {
      if (active.length > 0) return { kind: 'open', group };
      if (group.series.some((s) => s.state === 'retired') && allEnded) return { kind: 'skip', group, reason: 'no longer measured before an issue was opened' };
      return { kind: 'skip', group, reason: allEnded ? 'recovered before an issue was opened' : 'nothing regressed' };
    }
    if (issue.state === 'closed') {
      if (issue.closedByNightbench) return { kind: 'skip', group, issue, reason: 'closed by nightbench (recovered or no longer measured)' };
      if (active.length > 0) return { kind: 'accept', group, issue };
      return { kind: 'skip', group, issue, reason: 'closed by a maintainer' };
    }
    if (issue.reportedNights.includes(night)) return { kind: 'skip', group, issue, reason: `${night} already reported` };
    if (allEnded) return { kind: 'close', group, issue };
    // "Still regressed" is said of a night that measured it, not of one its workloads did not run on.
    if (active.some((s) => s.lastNight === night)) return { kind: 'comment', group, issue };
    if (active.length > 0) return { kind: 'skip', group, issue, reason: `not measured on ${night}` };
    return { kind: 'skip', group, issue, reason: 'nothing still regressed' };
  });
}

/** One line per action, for --dry-run and the summary. */
export function describeAction(action: IssueAction): string {
  const target = action.kind === 'open' ? 'new issue' : action.kind === 'unconfirmed' ? 'no issue' : action.issue?.ref ?? 'no issue';
  const what = `${action.group.suite} ${action.group.ranges.map((r) => `${r.repo}@${shortSha(r.from)}..${shortSha(r.to)}`).join(' ')} (${action.group.series.length} series)`;
  const why = action.kind === 'skip' ? `: ${action.reason}` : action.kind === 'unconfirmed' ? ': not reproduced on rerun' : '';
  return `${action.kind.padEnd(7)} ${target}: ${what}${why}`;
}
