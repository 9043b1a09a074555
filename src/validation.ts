/**
 * Reading checked input: JSON files whose syntax errors name the file, and zod validation whose
 * first problem becomes one line naming the key. Used for the config, suites, environments,
 * shard plans, provider and backend options alike, so it depends on nothing of theirs.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { configError, firstLine } from './errors.js';

/**
 * Parses JSON, turning a syntax error into one line that names the file and position. With
 * `commentLines`, a line whose first non-blank characters are `//` is a comment: no JSON string
 * spans lines, so such a line is never inside a value. It is blanked, keeping the positions.
 */
export function parseJsonFile(file: string, options: { commentLines?: boolean } = {}): unknown {
  let read: string;
  try {
    read = readFileSync(file, 'utf8');
  } catch (error) {
    // A path the user gave (a config, a shard plan, an event file) that is missing or a folder is
    // theirs to fix: one line naming it, not an internal error with a stack.
    throw configError(`${file}: cannot be read: ${unreadableReason(error)}`);
  }
  const text = options.commentLines ? read.replace(/^[ \t]*\/\/.*$/gm, '') : read;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw configError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
}

function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  return firstLine(error);
}

/**
 * Validates with a zod schema; the first problem becomes "where: key.path: what is allowed".
 * `where` may be worked out only when there is a problem (it may cost a second look at the input).
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string | (() => string)): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const key = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    return `${key}: ${describeIssue(issue)}`;
  });
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw configError(`${typeof where === 'string' ? where : where()}: ${issues[0]}${more}`);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message;
}
