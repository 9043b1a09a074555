/**
 * Checks of command-line values that no schema sees: a night must be a real date that has
 * begun or begins tomorrow, and a revision must not be an option in disguise. Each failure is a
 * usage error (exit 2) raised before a command opens or writes anything. Pure (`now` is a parameter).
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import { isCalendarNight, shiftNight } from '../night.js';

/**
 * `value` when it is a real calendar date YYYY-MM-DD no later than tomorrow (UTC): a typo such
 * as 2099-01-01 would otherwise become "the latest night" that every later command judges, and
 * 2026-02-30 would silently be read as March 2.
 */
export function checkNight(value: string, option: string, now: Date = new Date()): string {
  if (!isCalendarNight(value)) {
    throw new NightbenchError('usage', `${option} must be a calendar date such as 2026-12-01, got "${value}"`);
  }
  const tomorrow = shiftNight(now.toISOString().slice(0, 10), 1);
  if (value > tomorrow) throw new NightbenchError('usage', `${option} ${value} is in the future: the latest night allowed is tomorrow, ${tomorrow} (UTC)`);
  return value;
}

/**
 * `value` when git cannot take it for an option: a revision starting with "-" (such as
 * `--upload-pack=CMD`) would run through `git fetch` as one.
 */
export function checkRevision(value: string, option: string): string {
  if (value.startsWith('-')) throw new NightbenchError('usage', `${option} must be a commit, tag or branch, got "${value}" (a revision cannot start with "-")`);
  return value;
}

/** A commander parser of `--night`. */
export const nightOption = (value: string): string => checkNight(value, '--night');
