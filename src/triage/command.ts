/**
 * `/nightbench <command>` in an issue comment, parsed. Pure. The comment body is data: it is
 * matched against a fixed vocabulary here and never reaches a shell, an expression or a
 * command line; what is kept of it (a fix's commit, a note) is validated or stored as text.
 *
 * @module
 */
import type { TriageCommandName } from '../history/triage-queries.js';

/** What a comment asks for. */
export type ParsedComment =
  /** A known command; `note` is the rest of its line, as text. */
  | { kind: 'command'; command: Exclude<TriageCommandName, 'fixed-by'>; note?: string }
  | { kind: 'command'; command: 'fixed-by'; sha: string; note?: string }
  | { kind: 'help' }
  /** `/nightbench` followed by a word nightbench does not know, or by nothing. */
  | { kind: 'unknown' }
  /** A known command used wrongly (fixed-by without a commit). */
  | { kind: 'invalid'; command: TriageCommandName; problem: string };

/** The commands and what each does, in the order the help lists them. */
export const triageCommands: readonly { name: TriageCommandName; usage: string; does: string }[] = [
  { name: 'accept', usage: '/nightbench accept', does: 'the new level is intended: the regression is accepted, later nights compare with the new level, and the issue closes' },
  { name: 'false-alarm', usage: '/nightbench false-alarm', does: 'nothing regressed: recorded as a false positive (the series\' noise estimate learns from it), and the issue closes' },
  { name: 'bisect', usage: '/nightbench bisect', does: 'starts the bisect workflow over the suspect range' },
  { name: 'rerun', usage: '/nightbench rerun', does: 'reruns the last good against the first bad commit as an interleaved A/B and comments the result' },
  { name: 'fixed-by', usage: '/nightbench fixed-by SHA', does: 'records the fix; the issue closes, naming it, once the nightly sees the series recover' },
];

const known = new Set<string>(triageCommands.map((c) => c.name));
const commandLine = /^\/nightbench(?:\s+(.*))?$/i;
const sha = /^[0-9a-f]{7,40}$/i;
/** Notes are kept as text; a comment is not an essay store. */
const noteLimit = 500;

/** A line that opens or closes a fenced code block (a backtick fence's info string has no backtick: "```x```" is inline code). */
const fence = /^(`{3,}(?=[^`]*$)|~{3,})/;

/**
 * The first line of the comment that starts with `/nightbench` decides; undefined when there is
 * none (an ordinary comment). Quoted lines ("> /nightbench ..."), inline code and lines inside a
 * fenced code block (an example of the commands) are not commands.
 */
export function parseTriageComment(body: string): ParsedComment | undefined {
  let openFence: string | undefined;
  let line: string | undefined;
  for (const raw of body.split(/\r?\n/)) {
    const trimmed = raw.trim();
    const marker = fence.exec(trimmed)?.[1];
    if (marker !== undefined && (openFence === undefined || (marker[0] === openFence[0] && marker.length >= openFence.length))) {
      openFence = openFence === undefined ? marker : undefined;
      continue;
    }
    if (openFence === undefined && commandLine.test(trimmed)) {
      line = trimmed;
      break;
    }
  }
  if (line === undefined) return undefined;
  const words = (commandLine.exec(line)![1] ?? '').trim().split(/\s+/).filter(Boolean);
  const word = words[0]?.toLowerCase();
  if (word === 'help') return { kind: 'help' };
  if (word === undefined || !known.has(word)) return { kind: 'unknown' };
  const command = word as TriageCommandName;
  if (command === 'fixed-by') {
    const commit = words[1];
    if (commit === undefined || !sha.test(commit)) return { kind: 'invalid', command, problem: 'fixed-by needs the fixing commit: 7 to 40 hexadecimal digits of its SHA' };
    return withNote({ kind: 'command' as const, command, sha: commit.toLowerCase() }, words.slice(2));
  }
  return withNote({ kind: 'command' as const, command }, words.slice(1));
}

function withNote<T extends object>(parsed: T, rest: string[]): T & { note?: string } {
  const note = rest.join(' ').slice(0, noteLimit);
  return note ? { ...parsed, note } : parsed;
}
