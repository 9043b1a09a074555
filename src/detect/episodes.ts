/**
 * Stage 4 of detection: episodes, not alarms. A regression opens one episode; the nights after
 * update it; it ends when the series is back within noise of its pre-regression level on
 * `recoveryNights` nights in a row (recovered) or when a maintainer accepts the new level
 * (accepted). Pure: this module plans the changes, `store.ts` applies them.
 *
 * Why the state lives here and not in tonight's verdict alone: once the trailing week has
 * absorbed a new level, tonight's verdict says "stable" although the series never came back.
 * The episode keeps the pre-regression level and judges recovery against it, so a persisting
 * regression stays one open episode, and noise around the threshold cannot close and reopen it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { DetectionPolicy, Direction } from './policy.js';
import type { NightRef, SeriesVerdict } from './judge.js';
import type { SeriesIdentity } from './series.js';

/** `open` the night it is found, `still-regressed` after; `recovered` and `accepted` are final. */
export type EpisodeState = 'open' | 'still-regressed' | 'recovered' | 'accepted';

/** The states of an episode that still needs a look; the others are final. */
export const activeStates: readonly EpisodeState[] = ['open', 'still-regressed'];

/** One regression of one series, from its first bad night until it recovers or is accepted. */
export interface Episode {
  id: number;
  /** Hash of the series key and the first bad night: stable, so an issue can carry it. */
  fingerprint: string;
  seriesKey: string;
  identity: SeriesIdentity;
  unit: string | null;
  direction: Direction;
  firstBad: NightRef;
  lastGood: NightRef;
  /** The pre-regression level: the baseline median of the first bad night. */
  baselineMedian: number;
  /** Relative noise of a nightly median in that baseline; recovery is judged in these units. */
  baselineNoise: number;
  /** The first bad night's median, its ratio to the baseline and its p-value. */
  newMedian: number;
  ratio: number;
  pValue: number;
  state: EpisodeState;
  /** The last night that updated the episode; a night at or before it changes nothing. */
  lastNight: string;
  latestMedian: number;
  /** Consecutive ok nights back within noise of the pre-regression level, so far. */
  nightsBack: number;
  recoveredNight?: string;
  issueNumber?: number;
}

/** An episode as the planner opens it, before the table gives it an id. */
export type NewEpisode = Omit<Episode, 'id' | 'issueNumber' | 'recoveredNight'>;

/** What tonight does to the stored episodes. */
export type EpisodeChange =
  | { action: 'open'; episode: NewEpisode }
  | {
      action: 'update';
      id: number;
      fingerprint: string;
      seriesKey: string;
      from: EpisodeState;
      to: EpisodeState;
      lastNight: string;
      latestMedian: number;
      nightsBack: number;
      recoveredNight?: string;
    };

/**
 * A series that never deviates (e.g. a memory figure identical every night) has no noise, and
 * "back within noise" would demand the exact old value; within a quarter of the threshold of the
 * old level counts as back for such series.
 */
const recoveryFloorOfThreshold = 0.25;

/** The stable fingerprint of the episode of `seriesKey` that began on `firstBadNight`. */
export function episodeFingerprint(seriesKey: string, firstBadNight: string): string {
  return createHash('sha256').update(`${seriesKey}\n${firstBadNight}`).digest('hex').slice(0, 16);
}

/**
 * The changes tonight's verdicts make to the episodes (all episodes of the judged series, any
 * state). Idempotent: a series with an episode already updated on or after the verdict's night
 * is left alone, so running detection twice for a night, or for an older night, changes nothing.
 *
 * - an active episode is updated with tonight's median when tonight is ok: `nightsBack` grows
 *   while the series is back within noise of the pre-regression level and resets otherwise;
 *   at `recoveryNights` it is recovered. Nights that failed or were disturbed are skipped.
 * - a regression verdict opens an episode unless an active one already covers it: an episode
 *   whose first bad night is inside tonight's baseline is the same regression still being
 *   absorbed. Once the window holds only nights after that first bad night, a regression is a
 *   new step and opens its own episode.
 * - accepted and recovered episodes never change.
 */
export function planEpisodes(verdicts: readonly SeriesVerdict[], episodes: readonly Episode[], policy: DetectionPolicy): EpisodeChange[] {
  const bySeries = new Map<string, Episode[]>();
  for (const episode of episodes) {
    let list = bySeries.get(episode.seriesKey);
    if (list === undefined) bySeries.set(episode.seriesKey, (list = []));
    list.push(episode);
  }
  const changes: EpisodeChange[] = [];
  for (const verdict of verdicts) {
    const own = bySeries.get(verdict.seriesKey) ?? [];
    if (own.some((episode) => episode.lastNight >= verdict.night)) continue;
    const active = own.filter((episode) => activeStates.includes(episode.state));
    for (const episode of active) {
      const update = advance(episode, verdict, policy);
      if (update) changes.push(update);
    }
    const opened = openEpisode(verdict, active, own);
    if (opened) changes.push({ action: 'open', episode: opened });
  }
  return changes;
}

function advance(episode: Episode, verdict: SeriesVerdict, policy: DetectionPolicy): EpisodeChange | undefined {
  // Only an ok night with enough repeats tells where the series is; others leave the episode be.
  const judgeable = verdict.kind === 'regression' || verdict.kind === 'improvement' || verdict.kind === 'stable' || verdict.kind === 'insufficient-baseline';
  if (!judgeable || verdict.newMedian === undefined || !(verdict.newMedian > 0)) return undefined;
  const worse = Math.log(verdict.newMedian / episode.baselineMedian) * (episode.direction === 'lower-is-better' ? 1 : -1);
  const tolerance = Math.max(policy.recoveryNoiseMultiple * episode.baselineNoise, Math.log(1 + verdict.threshold * recoveryFloorOfThreshold));
  const nightsBack = worse <= tolerance ? episode.nightsBack + 1 : 0;
  const recovered = nightsBack >= policy.recoveryNights;
  return {
    action: 'update',
    id: episode.id,
    fingerprint: episode.fingerprint,
    seriesKey: episode.seriesKey,
    from: episode.state,
    to: recovered ? 'recovered' : 'still-regressed',
    lastNight: verdict.night,
    latestMedian: verdict.newMedian,
    nightsBack,
    recoveredNight: recovered ? verdict.night : undefined,
  };
}

function openEpisode(verdict: SeriesVerdict, active: readonly Episode[], own: readonly Episode[]): NewEpisode | undefined {
  if (verdict.kind !== 'regression') return undefined;
  const { latest, lastGood, baselineMedian, newMedian, noise, pValue } = verdict;
  if (!latest || !lastGood || baselineMedian === undefined || newMedian === undefined || noise === undefined || pValue === undefined) return undefined;
  const { baselineFrom } = verdict;
  if (baselineFrom === undefined || active.some((episode) => episode.firstBad.night >= baselineFrom)) return undefined;
  const fingerprint = episodeFingerprint(verdict.seriesKey, verdict.night);
  if (own.some((episode) => episode.fingerprint === fingerprint)) return undefined;
  return {
    fingerprint,
    seriesKey: verdict.seriesKey,
    identity: verdict.identity,
    unit: verdict.unit,
    direction: verdict.direction,
    firstBad: latest,
    lastGood,
    baselineMedian,
    baselineNoise: noise,
    newMedian,
    ratio: newMedian / baselineMedian,
    pValue,
    state: 'open',
    lastNight: verdict.night,
    latestMedian: newMedian,
    nightsBack: 0,
  };
}
