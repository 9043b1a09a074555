/**
 * Detection over the history: read the window, group series, compare, judge, plan episodes,
 * apply them. What `nightbench detect` and `nightbench nightly` call.
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { ResultRow } from '../history/types.js';
import { compareNight, nightsBefore } from './compare.js';
import { activeStates, planEpisodes, type Episode, type EpisodeChange, type NewEpisode } from './episodes.js';
import { judge, type SeriesVerdict, type VerdictKind } from './judge.js';
import type { DetectionPolicy } from './policy.js';
import { groupSeries, type Series } from './series.js';
import { applyEpisodeChanges, latestNightlyNight, loadEpisodes } from './store.js';

export interface DetectOptions {
  /** The night to judge: YYYY-MM-DD or an ISO timestamp (its date counts). Default: the latest nightly night. */
  now?: string;
  /** Only this suite's series. */
  suite?: string;
  /** Plan the episode changes without storing them. */
  dryRun?: boolean;
}

/** An episode still regressed after tonight; `id` is absent for one a dry run would open. */
export type ActiveEpisode = NewEpisode & { id?: number; issueNumber?: number };

export interface DetectionReport {
  /** The judged night; undefined when the history has no nightly run. */
  night?: string;
  suite?: string;
  dryRun: boolean;
  /** Every series that ran tonight, in series-key order. */
  verdicts: SeriesVerdict[];
  counts: Record<VerdictKind, number>;
  /** What tonight did to the episodes (planned only, in a dry run). */
  changes: EpisodeChange[];
  /** Ids of the episodes tonight opened (none in a dry run). */
  openedIds: number[];
  /** Episodes open or still regressed after tonight: the regressions someone must look at. */
  activeEpisodes: ActiveEpisode[];
}

const verdictKinds: readonly VerdictKind[] = ['regression', 'improvement', 'stable', 'failed', 'disturbed', 'missing', 'too-few-repeats', 'insufficient-baseline'];

/**
 * Judges every series of the night (default: the latest) against its trailing window and
 * advances the stored episodes. Idempotent: a second call for the same night changes nothing.
 */
export function detectRegressions(store: HistoryStore, policy: DetectionPolicy, options: DetectOptions = {}): DetectionReport {
  const dryRun = options.dryRun ?? false;
  const night = options.now !== undefined ? nightOf(options.now) : latestNightlyNight(store, options.suite);
  const counts = Object.fromEntries(verdictKinds.map((kind) => [kind, 0])) as Record<VerdictKind, number>;
  if (night === undefined) return { suite: options.suite, dryRun, verdicts: [], counts, changes: [], openedIds: [], activeEpisodes: [] };

  const rows = store.resultRows({ kind: 'nightly', suite: options.suite, sinceNight: nightsBefore(night, policy.windowDays) });
  const episodes = loadEpisodes(store, { suite: options.suite });
  const verdicts = judgeRows(rows, episodes, policy, night);
  for (const verdict of verdicts) counts[verdict.kind]++;
  const changes = planEpisodes(verdicts, episodes, policy);
  const openedIds = dryRun ? [] : applyEpisodeChanges(store, changes);
  const activeEpisodes: ActiveEpisode[] = dryRun
    ? activeAfter(episodes, changes)
    : loadEpisodes(store, { suite: options.suite, states: activeStates });
  return { night, suite: options.suite, dryRun, verdicts, counts, changes, openedIds, activeEpisodes };
}

/**
 * The pure pipeline up to the verdicts: groups the rows of `night` and its window (rows of other
 * nights cost a comparison each) and judges every series with a point on `night`.
 */
export function judgeRows(rows: readonly ResultRow[], episodes: readonly Episode[], policy: DetectionPolicy, night: string): SeriesVerdict[] {
  return judgeNight(groupSeries(rows, { from: nightsBefore(night, policy.windowDays), to: night }), episodes, policy, night);
}

/**
 * The verdicts of every series with a point on `night`. A series whose latest accepted episode
 * began inside the window is compared only with nights from that episode's first bad night on.
 */
export function judgeNight(series: readonly Series[], episodes: readonly Episode[], policy: DetectionPolicy, night: string): SeriesVerdict[] {
  const acceptedFrom = new Map<string, string>();
  for (const episode of episodes) {
    if (episode.state !== 'accepted') continue;
    const seen = acceptedFrom.get(episode.seriesKey);
    if (seen === undefined || episode.firstBad.night > seen) acceptedFrom.set(episode.seriesKey, episode.firstBad.night);
  }
  const verdicts: SeriesVerdict[] = [];
  for (const one of series) {
    const comparison = compareNight(one, { night, windowDays: policy.windowDays, baselineStart: acceptedFrom.get(one.key) });
    if (comparison.latest !== undefined) verdicts.push(judge(one, comparison, policy));
  }
  return verdicts;
}

/** The active episodes once `changes` were applied, without storing them (for a dry run). */
function activeAfter(episodes: readonly Episode[], changes: readonly EpisodeChange[]): ActiveEpisode[] {
  const ended = new Set(changes.flatMap((change) => (change.action === 'update' && !activeStates.includes(change.to) ? [change.id] : [])));
  const kept: ActiveEpisode[] = episodes.filter((episode) => activeStates.includes(episode.state) && !ended.has(episode.id));
  return [...kept, ...changes.flatMap((change) => (change.action === 'open' ? [change.episode] : []))];
}

function nightOf(now: string): string {
  const night = now.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(night) || Number.isNaN(Date.parse(`${night}T00:00:00Z`))) {
    throw new NightbenchError('usage', `the night to judge must be a date YYYY-MM-DD, got "${now}"`);
  }
  return night;
}
