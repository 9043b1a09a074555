/**
 * A night's cut-off: the instant every repository of a git target is taken at when a night is
 * replayed or backfilled, so that each repository is tested at its own state of that night and
 * not at another repository's. Pure.
 *
 * @module
 */

/** "HH:MM" (UTC): the time of day a night is cut off, the nightly's scheduled time. */
export const cutoffTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The default cut-off: the time of the cron of .github/workflows/nightly.yml. */
export const defaultCutoffTime = '02:17';

/** The instant night `night` (YYYY-MM-DD) is cut off at `time` ("HH:MM", UTC), as an ISO string. */
export function nightCutoff(night: string, time: string): string {
  return `${night}T${time}:00Z`;
}
