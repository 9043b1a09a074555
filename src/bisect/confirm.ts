/**
 * From episodes to a rerun and back: which series a bisect or a confirmation reruns, the request
 * for it, and what a rerun's result says about the episode (`github.confirm`). Pure.
 *
 * @module
 */
import type { Episode } from '../detect/episodes.js';
import type { Confirmation } from '../issues/group.js';
import type { BisectRequest } from './run.js';
import type { BisectResult } from './search.js';

/** The episode of the largest change (either way): what a bisect or a confirmation of several reruns. */
export function largestChange<T extends Pick<Episode, 'ratio'>>(episodes: readonly T[]): T {
  return [...episodes].sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)))[0]!;
}

/** A bisect (or rerun) of an episode's series over its last good and first bad nights' commits. */
export function episodeRequest(episode: Episode, mode: BisectRequest['mode'], options: { issueNumber?: number; seed?: number } = {}): BisectRequest {
  return {
    mode,
    judged: 'metric',
    suite: episode.identity.suite,
    workload: episode.identity.workload,
    metric: episode.identity.metric,
    good: episode.lastGood.commits,
    bad: episode.firstBad.commits,
    // The night-to-night noise of the series' medians: a floor under the noise of one repeat.
    priorNoise: episode.baselineNoise,
    episodeId: episode.id,
    issueNumber: episode.issueNumber ?? options.issueNumber,
    seed: options.seed,
  };
}

/**
 * What a rerun of `episode` (last good against first bad) says: reproduced when the A/B is
 * significant with an interval excluding 1 (the rerun's own test) and moves the way the episode
 * did; a rerun that finds the opposite change reproduces nothing of it.
 */
export function confirmationOf(result: BisectResult, episode: Pick<Episode, 'ratio' | 'identity' | 'unit'>, clusterSeconds: number): Confirmation {
  const comparison = result.confirmation;
  const sameWay = comparison?.ratio !== undefined && comparison.ratio.ratio > 1 === episode.ratio > 1;
  return {
    reproduced: result.outcome.kind === 'culprit' && sameWay,
    workload: episode.identity.workload,
    metric: episode.identity.metric,
    unit: episode.unit,
    ...(comparison?.ratio ? { ratio: comparison.ratio } : {}),
    ...(comparison?.p !== undefined ? { p: comparison.p } : {}),
    repeats: result.repeats,
    clusterSeconds,
  };
}
