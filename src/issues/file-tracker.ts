/**
 * The IssueTracker as Markdown files, one per fingerprint in reports/issues/: what GitHub would
 * get, for the local demo and when no token is set; also where issue text goes when GitHub
 * keeps failing, so no detection is lost.
 *
 * @module
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closedByNightbench, readImprovements, readNights } from './markers.js';
import type { IssueTracker, TrackedIssue } from './tracker.js';

const closedMarker = '<!-- nightbench:state=closed -->';
const separator = '\n\n---\n\n';

export function fileTracker(dir: string): IssueTracker {
  const file = (fingerprint: string) => path.join(dir, `${fingerprint}.md`);
  const tracked = (fingerprint: string, text: string): TrackedIssue => ({
    fingerprint,
    ref: file(fingerprint),
    state: text.includes(closedMarker) ? 'closed' : 'open',
    closedByNightbench: closedByNightbench([text]),
    reportedNights: readNights([text]),
    notedImprovements: readImprovements([text]),
  });
  // What this tracker read or wrote, kept up to date as it appends: a replay comments on an issue
  // night after night for years, and reading the whole file again each night would grow with it.
  const known = new Map<string, TrackedIssue>();
  const remember = (issue: TrackedIssue) => (known.set(issue.fingerprint, issue), issue);
  const append = (issue: TrackedIssue, body: string, closing: boolean) => {
    mkdirSync(dir, { recursive: true });
    // A comment on a GitHub issue that could not be sent starts a file of its own.
    if (!existsSync(file(issue.fingerprint))) writeFileSync(file(issue.fingerprint), `# Comment on ${issue.ref}\n`);
    const text = `${separator}${body}${closing ? `\n${closedMarker}\n` : ''}`;
    appendFileSync(file(issue.fingerprint), text);
    const before = known.get(issue.fingerprint);
    if (before === undefined) return;
    const added = tracked(issue.fingerprint, text);
    remember({
      ...before,
      state: closing ? 'closed' : before.state,
      closedByNightbench: before.closedByNightbench || added.closedByNightbench,
      reportedNights: [...new Set([...before.reportedNights, ...added.reportedNights])].sort(),
      notedImprovements: [...new Set([...before.notedImprovements, ...added.notedImprovements])].sort(),
    });
  };

  return {
    description: `files in ${dir}`,
    find: async (fingerprints) => fingerprints.flatMap((f) => known.get(f) ?? (existsSync(file(f)) ? [remember(tracked(f, readFileSync(file(f), 'utf8')))] : [])),
    open: async (issue) => {
      mkdirSync(dir, { recursive: true });
      const text = `# ${issue.title}\n\nLabels: ${issue.labels.join(', ')}\n\n${issue.body}`;
      writeFileSync(file(issue.fingerprint), text);
      return remember(tracked(issue.fingerprint, text));
    },
    comment: async (issue, body) => append(issue, body, false),
    close: async (issue, body) => append(issue, body, true),
  };
}
