/**
 * A replay's totals, what a maintainer asks before adopting: how many issues a year, how many of
 * them were transient (the series came back, see transient.ts), and which series never settle.
 * Pure: the ledger, the replayed episodes and the series' nightly results in.
 *
 * @module
 */
import { median } from 'simple-statistics';
import type { Episode } from '../detect/episodes.js';
import type { Series } from '../detect/series.js';
import type { ReplayedIssue } from './ledger.js';
import { isTransient, transientRule, type TransientRule } from './transient.js';

/** A series with this many episodes in one replay keeps moving: it never settles on a level. */
export const unsettledEpisodes = 3;

export interface UnsettledSeries {
  series: string;
  episodes: number;
}

export interface ReplayTotals {
  issues: number;
  stillOpen: number;
  /** Issues opened per calendar year of their opening night. */
  perYear: Record<string, number>;
  /** Issues whose every series came back (transient), of those the rule could judge. */
  transient: { judged: number; transient: number; share?: number };
  /** Median nights from opening to closing (or to the last night) over the issues. */
  medianNightsOpen?: number;
  unsettled: UnsettledSeries[];
}

/**
 * Marks each issue transient or not and sums up. `series`: the replayed range's series (their
 * nightly results), by key; `episodes`: the episodes the replay found.
 */
export function replayTotals(issues: readonly ReplayedIssue[], episodes: readonly Episode[], series: readonly Series[], rule: TransientRule = transientRule): { issues: ReplayedIssue[]; totals: ReplayTotals } {
  const byId = new Map(episodes.map((e) => [e.id, e]));
  const results = new Map(series.map((one) => [one.key, nightlyResults(one)]));
  const judged = issues.map((issue): ReplayedIssue => {
    const answers = issue.series.flatMap((s) => {
      const episode = s.episodeId === undefined ? undefined : byId.get(s.episodeId);
      const values = episode === undefined ? undefined : results.get(episode.seriesKey);
      const firstBad = values?.nights.indexOf(episode!.firstBad.night) ?? -1;
      const answer = firstBad < 0 ? undefined : isTransient(values!.values, firstBad, rule);
      return answer === undefined ? [] : [answer];
    });
    return { ...issue, ...(answers.length === 0 ? {} : { transient: answers.every(Boolean) }) };
  });
  const perYear: Record<string, number> = {};
  for (const issue of judged) perYear[issue.openedNight.slice(0, 4)] = (perYear[issue.openedNight.slice(0, 4)] ?? 0) + 1;
  const told = judged.filter((i) => i.transient !== undefined);
  const transient = told.filter((i) => i.transient).length;
  return {
    issues: judged,
    totals: {
      issues: judged.length,
      stillOpen: judged.filter((i) => i.closedNight === undefined).length,
      perYear,
      transient: { judged: told.length, transient, ...(told.length === 0 ? {} : { share: transient / told.length }) },
      ...(judged.length === 0 ? {} : { medianNightsOpen: median(judged.map((i) => i.nightsOpen)) }),
      unsettled: unsettledSeries(episodes),
    },
  };
}

/** One result per night with an ok point: the median of its undisturbed repeats. */
export function nightlyResults(series: Series): { nights: string[]; values: number[] } {
  const ok = series.points.filter((p) => p.status === 'ok' && p.values.length > 0);
  return { nights: ok.map((p) => p.night), values: ok.map((p) => median(p.values)) };
}

function unsettledSeries(episodes: readonly Episode[]): UnsettledSeries[] {
  const counts = new Map<string, { name: string; episodes: number }>();
  for (const { seriesKey, identity } of episodes) {
    const seen = counts.get(seriesKey) ?? { name: `${identity.suite} ${identity.workload} ${identity.metric} (${identity.environmentName})`, episodes: 0 };
    seen.episodes++;
    counts.set(seriesKey, seen);
  }
  return [...counts.values()].filter((c) => c.episodes >= unsettledEpisodes).sort((a, b) => b.episodes - a.episodes || a.name.localeCompare(b.name)).map((c) => ({ series: c.name, episodes: c.episodes }));
}
