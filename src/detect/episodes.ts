/**
 * Stage 4 of detection: episodes, not alarms. A regression (or an improvement) opens one episode; the nights after
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
import type { Episode, EpisodeChange, EpisodeState, NewEpisode } from '../history/episode-rows.js';
import type { DetectionPolicy } from './policy.js';
import type { SeriesVerdict } from './judge.js';

export type { Episode, EpisodeChange, EpisodeKind, EpisodeState, NewEpisode } from '../history/episode-rows.js';

/** The states of an episode that still needs a look; the others are final. */
export const activeStates: readonly EpisodeState[] = ['open', 'still-regressed'];

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
 * - a regression or improvement verdict opens an episode from the night its change began,
 *   unless an episode of the series began on or after that night (the same shift seen again:
 *   after a shift, detection compares only with nights from its first bad night on, see
 *   `judgeNight`), or the change is an active episode's series returning to its old level.
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
    const opened = openEpisode(verdict, active, own, policy);
    if (opened) changes.push({ action: 'open', episode: opened });
  }
  return changes;
}

/**
 * The active episodes whose series is no longer measured end as `retired` tonight: no ok night
 * has advanced them since before `lookbackFrom`, the oldest night detection reads (the workload
 * was removed or renamed, its environment retired, or it failed every night since). Detection
 * can no longer judge them, so they would stay active forever: counted open on every page, and
 * filed years later by any new issue tracker. `changed`: tonight's other changes, whose
 * episodes are left to them. Episodes of other suites than `suite` (when given) are left alone.
 */
export function planRetirements(episodes: readonly Episode[], changed: readonly EpisodeChange[], night: string, lookbackFrom: string, suite?: string): EpisodeChange[] {
  const touched = new Set(changed.flatMap((change) => (change.action === 'update' ? [change.id] : [])));
  return episodes
    .filter((e) => activeStates.includes(e.state) && e.lastNight < lookbackFrom && !touched.has(e.id) && (suite === undefined || e.identity.suite === suite))
    .map((e) => ({ action: 'update', id: e.id, fingerprint: e.fingerprint, seriesKey: e.seriesKey, from: e.state, to: 'retired', lastNight: night, latestMedian: e.latestMedian, nightsBack: e.nightsBack }));
}

function advance(episode: Episode, verdict: SeriesVerdict, policy: DetectionPolicy): EpisodeChange | undefined {
  // Only an ok night with enough repeats tells where the series is; others leave the episode be.
  const judgeable = verdict.kind === 'regression' || verdict.kind === 'improvement' || verdict.kind === 'stable' || verdict.kind === 'insufficient-baseline';
  if (!judgeable || verdict.newMedian === undefined || !(verdict.newMedian > 0)) return undefined;
  const nightsBack = isBack(episode, verdict.newMedian, verdict, policy) ? episode.nightsBack + 1 : 0;
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

function openEpisode(verdict: SeriesVerdict, active: readonly Episode[], own: readonly Episode[], policy: DetectionPolicy): NewEpisode | undefined {
  if (verdict.kind !== 'regression' && verdict.kind !== 'improvement') return undefined;
  const { latest, firstBad, lastGood, baselineMedian, newMedian, change, noise } = verdict;
  if (!latest || !firstBad || !lastGood || baselineMedian === undefined || newMedian === undefined || change === undefined || noise === undefined) return undefined;
  // A shift that began at or before a known episode's first night is that episode seen again.
  if (own.some((episode) => episode.firstBad.night >= firstBad.night)) return undefined;
  // A move back to the level before an active regression is its fix, not a new episode, when the
  // night counts as back for its recovery too, and does not pass the old level by the threshold
  // (then it is the fix and an improvement of its own). A move back from an improvement is a
  // regression: the speed-up was lost.
  const reverting = active.some(
    (episode) => episode.kind === 'regression' && episode.ratio >= 1 !== change >= 0 && isBack(episode, newMedian, verdict, policy) && awayFromOldLevel(episode, newMedian) > -Math.log1p(verdict.threshold),
  );
  if (reverting) return undefined;
  return {
    kind: verdict.kind,
    fingerprint: episodeFingerprint(verdict.seriesKey, firstBad.night),
    seriesKey: verdict.seriesKey,
    identity: verdict.identity,
    unit: verdict.unit,
    direction: verdict.direction,
    firstBad,
    lastGood,
    baselineMedian,
    baselineNoise: noise,
    newMedian: baselineMedian * (1 + change),
    ratio: 1 + change,
    pValue: verdict.pValue ?? 1,
    state: 'open',
    lastNight: verdict.night,
    latestMedian: newMedian,
    nightsBack: 0,
  };
}

/** How far `median` still is from the level before `episode` (log units), measured the way the episode moved it: negative once past it. */
function awayFromOldLevel(episode: Episode, median: number): number {
  return Math.log(median / episode.baselineMedian) * (episode.ratio >= 1 ? 1 : -1);
}

/** Whether `median` is back at the level before `episode`: within noise of it, or past it. */
function isBack(episode: Episode, median: number, verdict: SeriesVerdict, policy: DetectionPolicy): boolean {
  return awayFromOldLevel(episode, median) <= recoveryTolerance(episode, verdict, policy);
}

/** "Back": within this many log units of the level before the episode. */
function recoveryTolerance(episode: Episode, verdict: SeriesVerdict, policy: DetectionPolicy): number {
  return Math.max(policy.recoveryNoiseMultiple * episode.baselineNoise, Math.log(1 + verdict.threshold * recoveryFloorOfThreshold));
}
