/**
 * Where each episode and each broken workload was published: a GitHub issue (its number is
 * stored with the episode) or a Markdown file in reports/issues/ (named by the issue's
 * fingerprint, written when no token was set or GitHub kept failing). The pages link either, so
 * every published episode is counted and reachable. An episode `nightbench replay` found was
 * never published; its issue is the file the replay wrote (reports/replay/<from>_<to>/), linked
 * the same way and labelled as a replay's. Pure: which files exist is a parameter.
 *
 * @module
 */
import { brokenFingerprint } from '../detect/failures.js';
import type { Episode } from '../detect/index.js';
import { relativeHref, sitePaths } from './paths.js';
import type { IssueRef } from './types.js';

/** Finds the published issue of an episode or of a workload's failing streak. */
export interface PublishedIssues {
  ofEpisode(episode: Episode): IssueRef | undefined;
  /** The issue of a workload broken since `firstFailingNight` (only written as a file can it be found offline). */
  ofBroken(suite: string, workload: string, firstFailingNight: string): IssueRef | undefined;
}

/**
 * `fileFingerprints`: the fingerprints of the Markdown issue files the site publishes (under
 * `sitePaths.issueFile`), `replayFingerprints` those of them a replay wrote;
 * `episodeIssueFingerprint` names an episode's file. An episode with a GitHub number links there first.
 */
export function publishedIssues(
  fileFingerprints: ReadonlySet<string>,
  issueUrl: (issue: number) => string | undefined,
  episodeIssueFingerprint: (episode: Episode) => string,
  replayFingerprints: ReadonlySet<string> = new Set(),
): PublishedIssues {
  const asFile = (fingerprint: string): IssueRef | undefined => {
    if (replayFingerprints.has(fingerprint)) return { label: `replay ${fingerprint.slice(0, 8)}`, href: sitePaths.issueFile(fingerprint), file: true, replay: true };
    return fileFingerprints.has(fingerprint) ? { label: `file ${fingerprint.slice(0, 8)}`, href: sitePaths.issueFile(fingerprint), file: true } : undefined;
  };
  return {
    ofEpisode(episode) {
      if (episode.issueNumber !== undefined) return { label: `#${episode.issueNumber}`, href: issueUrl(episode.issueNumber) };
      return asFile(episodeIssueFingerprint(episode));
    },
    ofBroken: (suite, workload, night) => asFile(brokenFingerprint({ suite, workload, night })),
  };
}

/** The link of an issue from a page at `pagePath`: a file of the site is relative to it, GitHub's is absolute. */
export function issueHref(issue: IssueRef, pagePath: string): string | undefined {
  return issue.file && issue.href !== undefined ? relativeHref(pagePath, issue.href) : issue.href;
}

/** A regression issue written as a file, as the detection-quality page lists it. */
export interface FileIssue {
  issue: IssueRef;
  suite: string;
  firstBadNight: string;
}

/** The regression issues published only as files: one per file, oldest first bad night first. */
export function fileIssues(episodes: readonly Episode[], issues: PublishedIssues): FileIssue[] {
  const byHref = new Map<string, FileIssue>();
  for (const episode of [...episodes].sort((a, b) => a.firstBad.night.localeCompare(b.firstBad.night))) {
    const issue = issues.ofEpisode(episode);
    if (!issue?.file || byHref.has(issue.href!)) continue;
    byHref.set(issue.href!, { issue, suite: episode.identity.suite, firstBadNight: episode.firstBad.night });
  }
  return [...byHref.values()];
}
