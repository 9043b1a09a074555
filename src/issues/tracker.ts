/**
 * The narrow port through which issues are found and changed: GitHub (through Octokit) or
 * Markdown files in reports/issues/. Small enough to fake by hand.
 *
 * @module
 */

/** An issue nightbench wrote earlier, as found again by its fingerprint. */
export interface TrackedIssue {
  fingerprint: string;
  /** GitHub's issue number; files have none. */
  number?: number;
  /** How to name it to a person: "acme/perf#12" or a file path. */
  ref: string;
  url?: string;
  state: 'open' | 'closed';
  /** Closed by nightbench after a recovery, rather than by a maintainer. */
  closedByNightbench: boolean;
  /** Nights the body and comments already reported. */
  reportedNights: string[];
  /** Fingerprints of the improvement episodes already noted on it (`github.improvements: comment`). */
  notedImprovements: string[];
}

export interface NewIssue {
  fingerprint: string;
  title: string;
  body: string;
  labels: string[];
}

export interface IssueTracker {
  /** Where issues go, for messages: "GitHub acme/perf" or "files in reports/issues". */
  readonly description: string;
  /** Issues (open and closed) carrying any of these fingerprints. */
  find(fingerprints: readonly string[]): Promise<TrackedIssue[]>;
  open(issue: NewIssue): Promise<TrackedIssue>;
  comment(issue: TrackedIssue, body: string): Promise<void>;
  /** Comments, then closes. */
  close(issue: TrackedIssue, body: string): Promise<void>;
}
