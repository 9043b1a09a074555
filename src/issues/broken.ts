/**
 * Issues of broken workloads (src/detect/failures.ts): the plan (open, comment while failing,
 * close when passing again, skip what a night already reported) and the text. Pure.
 *
 * @module
 */
import type { BrokenWorkload } from '../detect/failures.js';
import { shortSha } from '../format/index.js';
import { markers } from './markers.js';
import type { SuspectRange } from './group.js';
import { renderRanges, sinceCommits, type RangeRenderContext } from './render.js';
import type { TrackedIssue } from './tracker.js';

/** The label of a broken workload's issue: triage tells such an issue from a regression's by it. */
export const brokenLabel = 'broken';

export type BrokenAction =
  | { kind: 'open'; broken: BrokenWorkload }
  | { kind: 'comment'; broken: BrokenWorkload; issue: TrackedIssue }
  | { kind: 'close'; broken: BrokenWorkload; issue: TrackedIssue }
  | { kind: 'skip'; broken: BrokenWorkload; issue?: TrackedIssue; reason: string };

export function planBroken(broken: readonly BrokenWorkload[], existing: readonly TrackedIssue[], night: string): BrokenAction[] {
  const byFingerprint = new Map(existing.map((issue) => [issue.fingerprint, issue]));
  return broken.map((b): BrokenAction => {
    const issue = byFingerprint.get(b.fingerprint);
    if (!issue) return b.state === 'failing' ? { kind: 'open', broken: b } : { kind: 'skip', broken: b, reason: 'fixed before any issue was opened' };
    if (issue.reportedNights.includes(night)) return { kind: 'skip', broken: b, issue, reason: `${night} already reported` };
    if (issue.state === 'closed') return { kind: 'skip', broken: b, issue, reason: 'closed' };
    return b.state === 'failing' ? { kind: 'comment', broken: b, issue } : { kind: 'close', broken: b, issue };
  });
}

export function describeBroken(b: BrokenWorkload): string {
  return `${b.suite} ${b.workload}`;
}

/**
 * "fails since <sha>": the first failing commit of every repository that changed between the
 * last passing and the first failing night (see sinceCommits), in the target's order; "fails
 * from its first night" when it never passed.
 */
export function renderBrokenTitle(b: BrokenWorkload, repositories: readonly string[] = []): string {
  const ranges = brokenRanges(b).sort((x, y) => rank(repositories, x.repo) - rank(repositories, y.repo));
  const since = !b.lastPassing ? ' from its first night' : ranges.length === 0 ? ` since ${b.firstFailing.night}` : sinceCommits(ranges);
  return `Broken: ${b.workload} (${b.suite}) fails${since} (${b.firstFailing.night})`;
}

/** Each repository's range from the last passing to the first failing night (none without a passing night); a side a night lacks is empty. */
export function brokenRanges(b: BrokenWorkload): SuspectRange[] {
  const passing = b.lastPassing?.commits;
  if (!passing) return [];
  return Object.keys({ ...passing, ...b.firstFailing.commits }).map((repo) => ({ repo, from: passing[repo] ?? '', to: b.firstFailing.commits[repo] ?? '' }));
}

function rank(repositories: readonly string[], repo: string): number {
  const at = repositories.indexOf(repo);
  return at === -1 ? repositories.length : at;
}

/** The opening body: what fails with its error tail, the suspect range with commits, authors and blame. */
export function renderBrokenIssue(b: BrokenWorkload, context: RangeRenderContext): string {
  const ranges = brokenRanges(b);
  const opening = [markers.fingerprint(b.fingerprint), markers.night(b.firstFailing.night)];
  const error = ['## Error (tail)', fence(b.firstFailing.error ?? 'no error recorded')];
  if (!b.lastPassing) {
    return [...opening, `**${describeBroken(b)}** fails from its first recorded night, ${b.firstFailing.night}: there is no passing night to search from.`, ...error].join('\n\n');
  }
  return [
    ...opening,
    `**${describeBroken(b)}** passed on ${b.lastPassing.night} and fails since ${b.firstFailing.night}.`,
    ...error,
    renderRanges({ ranges }, context),
    // A repository the last passing night did not have cannot be searched: the others are paired by date.
    `## Bisect\n\nPass/fail is the cheapest bisect: \`${context.cli} bisect --failing --workload ${b.workload} ${ranges.filter((r) => r.from && r.to).map((r) => `--good ${r.repo}=${r.from.slice(0, 12)} --bad ${r.repo}=${r.to.slice(0, 12)}`).join(' ')}\``,
  ].join('\n\n');
}

export function renderBrokenComment(b: BrokenWorkload, night: string): string {
  if (b.state === 'fixed') return `${markers.night(night)}\nPasses again on ${night} (${shortCommits(b.latest.commits)}): closing.`;
  return `${markers.night(night)}\nStill failing on ${night} (${shortCommits(b.latest.commits)}):\n\n${fence(b.latest.error ?? 'no error recorded')}`;
}

function shortCommits(commits: Record<string, string>): string {
  return Object.entries(commits).map(([repo, sha]) => `${repo}@${shortSha(sha)}`).join(', ');
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;
}
