/**
 * What nightbench answers on an issue after a `/nightbench` comment. Pure. Nothing of the
 * comment's text is echoed back: a reply names the command from nightbench's own vocabulary,
 * the commit only once it is validated as hexadecimal, and the author by a login GitHub gave.
 *
 * @module
 */
import type { TriageCommandName } from '../history/triage-queries.js';
import { triageCommands } from './command.js';

const replyMarker = /<!-- nightbench:reply-to=(\d+) -->/g;

/** The hidden marker of a reply, so a workflow run again finds the comment answered already. */
const replyTo = (commentId: number) => `<!-- nightbench:reply-to=${commentId} -->`;

/** Comment ids that replies among these texts answer. */
export function answeredComments(texts: readonly (string | null | undefined)[]): Set<number> {
  return new Set(texts.flatMap((text) => [...(text ?? '').matchAll(replyMarker)].map((m) => Number(m[1]))));
}

export const triageLabels: Partial<Record<TriageCommandName, string>> = {
  accept: 'nightbench:accepted',
  'false-alarm': 'nightbench:false-alarm',
  'fixed-by': 'nightbench:fix-recorded',
};

function commandList(): string {
  return triageCommands.map((c) => `- \`${c.usage}\`: ${c.does}.`).join('\n');
}

export const replies = {
  refused: () =>
    `thank you. Only people with write, maintain or admin access to this repository can triage nightbench issues, so nothing was changed. A maintainer can act on it with one of the commands:\n\n${commandList()}`,
  help: () => `nightbench understands these commands in a comment on its issues (from people with write access):\n\n${commandList()}`,
  unknown: () => `nightbench did not recognise that command, so nothing was changed. It understands:\n\n${commandList()}`,
  invalid: (problem: string) => `Nothing was changed: ${problem}. For example: \`/nightbench fixed-by 1a2b3c4\`.`,
  notForBroken: (issue: number) =>
    `Nothing was changed: #${issue} reports a broken workload, not a regression, so only \`/nightbench bisect\` applies to it. It closes by itself once the workload runs again.`,
  notYetInHistory: (issue: number) =>
    `(The history this job read does not hold #${issue}'s series yet: the nightly that opened it was still saving. The command is recorded and applies to them once that save lands.)`,
  accepted: (episodes: number) =>
    `Accepted as intended: ${episodes <= 1 ? 'the regression is' : `the ${episodes} regressed series are`} recorded as a true positive, and later nights are compared with the new level. Closing.`,
  falseAlarm: (episodes: number) =>
    `Recorded as a false alarm${episodes === 0 ? '' : ` (${episodes === 1 ? 'one series' : `${episodes} series`})`}: it counts against nightbench's precision on the Detection quality page, and detection learns the series' noise from it. Closing.`,
  dispatched: (mode: 'bisect' | 'rerun', ref: string) =>
    mode === 'bisect'
      ? `Started the bisect workflow on \`${ref}\`: it narrows the suspect range down to a commit and comments here when it is done.`
      : `Started a rerun on \`${ref}\`: the last good and the first bad commit run interleaved as an A/B, and the result is commented here.`,
  fixRecorded: (sha: string) => `Recorded \`${sha}\` as the fix. The issue closes, naming it, once the nightly sees every series back at its level.`,
};

/** A reply to a comment: the marker, the mention and the text. */
export function reply(commentId: number | undefined, author: string, text: string): string {
  return `${commentId === undefined ? '' : `${replyTo(commentId)}\n`}@${author} ${text}\n`;
}
