/**
 * Failing nights on a workload's charts: a night whose repeats all failed would otherwise be a
 * silent gap, a night where only some failed a point that looks as firm as any other, and a night
 * an incomplete run cut short repeats that look like a point detection judged. Each gets a marker
 * with the error's line that names it and, for a failing streak, the broken workload's issue. Pure.
 *
 * @module
 */
import { issueHref, type PublishedIssues } from './published.js';
import type { Marker } from './types.js';
import { formatCount } from '../format/index.js';

/** How one night of a workload went, oldest night first. */
export interface NightFailures {
  night: string;
  failedRepeats: number;
  /** Whether any repeat produced a value. */
  hasValues: boolean;
  /** The tail of a failed repeat's error. */
  error?: string;
  /** Set when an incomplete run cut the workload short: its repeats are no point of the series. */
  cutShort?: { measured: number; configured: number };
}

/** The line of an error tail that names the error (a traceback's last non-empty line). */
export function errorHeadline(error: string | undefined): string | undefined {
  return error?.split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
}

/**
 * Markers for the failed, incomplete and cut-short nights of one workload. A failing streak's
 * issue is the broken workload's, named by the streak's first night; a workload failing from its
 * very first night never passed, so it has no such issue. A cut-short night says nothing about
 * the code (the runner stopped, not the workload), so it neither starts nor ends a streak.
 */
export function failingNightMarkers(suite: string, workload: string, nights: readonly NightFailures[], issues: PublishedIssues, pagePath: string): Marker[] {
  const markers: Marker[] = [];
  let streakStart: string | undefined;
  let passedBefore = false;
  for (const night of nights) {
    if (night.cutShort) {
      const { measured, configured } = night.cutShort;
      markers.push({ night: night.night, kind: 'cut-short', label: `incomplete: run cut short (${measured} of ${configured} repeats measured; not judged)` });
      continue;
    }
    const failed = night.failedRepeats > 0 && !night.hasValues;
    if (!failed) {
      streakStart = undefined;
      if (night.hasValues) passedBefore = true;
    }
    if (night.failedRepeats === 0) continue;
    const headline = errorHeadline(night.error) ?? 'no error recorded';
    if (!failed) {
      markers.push({ night: night.night, kind: 'incomplete', label: `incomplete: ${formatCount(night.failedRepeats, 'repeat')} failed (${headline})` });
      continue;
    }
    streakStart ??= night.night;
    const issue = passedBefore ? issues.ofBroken(suite, workload, streakStart) : undefined;
    markers.push({ night: night.night, kind: 'failed', label: `failed: ${headline}`, ...(issue ? { issueUrl: issueHref(issue, pagePath) } : {}) });
  }
  return markers;
}
