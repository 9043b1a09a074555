/**
 * Nights are calendar dates, `YYYY-MM-DD` in UTC: the key of every run, series point and
 * episode. Their arithmetic lives here once, so that "the night before", "nights between" and
 * "is this a real date" mean the same thing to detection, issues, backfill and the CLI. Pure.
 *
 * @module
 */

const dayMs = 86_400_000;

/** Midnight UTC of `night`, in ms since the epoch (NaN when it is not a date). */
export function nightTime(night: string): number {
  return Date.parse(`${night}T00:00:00Z`);
}

/** True when `value` is a real calendar date written YYYY-MM-DD (2026-02-30 is not: Date would read it as March 2). */
export function isCalendarNight(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = nightTime(value);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** The night `days` days after `night` (before it when `days` is negative). */
export function shiftNight(night: string, days: number): string {
  return new Date(nightTime(night) + days * dayMs).toISOString().slice(0, 10);
}

/** The night `days` days before `night`. */
export function nightsBefore(night: string, days: number): string {
  return shiftNight(night, -days);
}

/** Days since 1970-01-01: nights as numbers, for loops that compare many of them. */
export function dayNumber(night: string): number {
  return Math.round(nightTime(night) / dayMs);
}

/** Whole days from night `from` to night `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/*
 * A night's cut-off: the instant every repository of a git target is taken at when a night is
 * replayed or backfilled, so that each repository is tested at its own state of that night and
 * not at another repository's.
 */

/** "HH:MM" (UTC): the time of day a night is cut off, the nightly's scheduled time. */
export const cutoffTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The default cut-off: the time of the cron of .github/workflows/nightly.yml. */
export const defaultCutoffTime = '02:17';

/** The instant night `night` (YYYY-MM-DD) is cut off at `time` ("HH:MM", UTC), as an ISO string. */
export function nightCutoff(night: string, time: string): string {
  return `${night}T${time}:00Z`;
}
