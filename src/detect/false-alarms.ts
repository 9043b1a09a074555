/**
 * What a maintainer's `/nightbench false-alarm` teaches detection: the series is noisier than
 * its measured spread says. Pure: the recorded false alarms in, a noise floor per series out.
 *
 * @module
 */
import { nightsBefore } from '../night.js';
import type { DetectionPolicy } from './policy.js';

/** What detection needs of an episode called a false alarm (`TriageStore.falseAlarmEpisodes()` rows fit). */
export interface FalseAlarmStep {
  seriesKey: string;
  /** The night the false step began. */
  firstBadNight: string;
  /** Its median over the baseline's. */
  ratio: number;
}

/**
 * A false alarm raises its series' noise for this many days after its first bad night: long
 * enough to cover the weeks a flaky benchmark takes to repeat itself, short enough that a fix
 * of the benchmark (or of the machines) gives the series back its sensitivity.
 */
export const falseAlarmMemoryDays = 90;

/**
 * Series key -> the least relative noise of a nightly median that keeps a step as large as the
 * series' recent false alarms below both paths' bars. The fast path needs `noiseMultiple` times
 * the change noise (at least the nightly noise); the persistence path needs `persistZ` standard
 * errors of the mean of `persistNights` nights, at least noise / sqrt(persistNights). Which path
 * opened the episode is not recorded, so the floor takes the lower bar:
 * `|ln ratio| / min(noiseMultiple, persistZ / sqrt(persistNights))`. Only false alarms that began
 * within {@link falseAlarmMemoryDays} before `night` count.
 */
export function falseAlarmNoiseFloors(falseAlarms: readonly FalseAlarmStep[], policy: DetectionPolicy, night: string): Map<string, number> {
  const since = nightsBefore(night, falseAlarmMemoryDays);
  const bar = Math.min(policy.noiseMultiple, policy.persistZ / Math.sqrt(policy.persistNights));
  const floors = new Map<string, number>();
  for (const alarm of falseAlarms) {
    if (alarm.firstBadNight < since || alarm.firstBadNight >= night || !(alarm.ratio > 0)) continue;
    const floor = Math.abs(Math.log(alarm.ratio)) / bar;
    floors.set(alarm.seriesKey, Math.max(floor, floors.get(alarm.seriesKey) ?? 0));
  }
  return floors;
}
