/**
 * What the pages take from regression detection (src/detect), and the one place that reads
 * detection's vocabulary: verdicts on the latest night and stored episodes become index
 * statuses, issue links and chart markers. Pure.
 *
 * @module
 */
import type { Comparability } from '../history/types.js';
import { describeDetectable, type Detectable, type Episode, type SeriesVerdict, type VerdictKind } from '../detect/index.js';
import { formatChange } from '../format/index.js';
import { variantOf } from './paths.js';
import type { MachineNight } from '../detect/machine-night.js';
import { issueHref, type PublishedIssues } from './published.js';
import type { IssueRef, MachineNightNote, Marker, SeriesStatus } from './types.js';

/** Detection's results as the site needs them: tonight's verdicts (a dry run), every stored episode, the machine nights. */
export interface DetectionFacts {
  verdicts: readonly SeriesVerdict[];
  episodes: readonly Episode[];
  /** Stored findings and tonight's (a night may have one per suite); absent: none. */
  machineNights?: readonly MachineNight[];
  /** The night the verdicts judged (the history's latest); absent when detection judged none. */
  night?: string;
}

/** Status, note and issue of one series on the index. */
export interface SeriesJudgement {
  status: SeriesStatus;
  note?: string;
  /** The active episode's issue, on GitHub or as a file (`href` from the site root). */
  issue?: IssueRef;
  /** For an active episode: the latest median against the level before the regression. */
  changeSinceEpisode?: number;
  /** What the series catches at its settings, from the latest night's verdict (absent when it was not judged, or too young). */
  detectable?: Detectable;
  /** Judged on the latest night but too young for its noise to be known: the night of its history from which it is. */
  reachKnownFrom?: number;
}

const verdictStatus: Record<VerdictKind, SeriesStatus> = {
  regression: 'regressed',
  improvement: 'improved',
  stable: 'stable',
  failed: 'failing',
  disturbed: 'insufficient',
  missing: 'not-run',
  'insufficient-baseline': 'insufficient',
};

/**
 * The key of a series on the pages: suite, workload, metric and variant. Detection also keys by
 * workload version; the pages draw one line across versions, and a changed workload shows as a step.
 */
export function siteSeriesKey(suite: string, workload: string, metric: string, variantId: string): string {
  return [suite, workload, metric, variantId].join('\u0000');
}

const keyOf = (identity: Comparability & { suite: string; workload: string; metric: string }) =>
  siteSeriesKey(identity.suite, identity.workload, identity.metric, variantOf(identity).id);
const isActive = (episode: Episode) => episode.kind === 'regression' && (episode.state === 'open' || episode.state === 'still-regressed');

/** What a marker's label adds for an episode that ended other than by recovering. */
const stateNote: Partial<Record<Episode['state'], string>> = { accepted: ' (accepted)', unconfirmed: ' (unconfirmed: not reproduced on rerun)', retired: ' (no longer measured)' };

/** Judgements and markers looked up by series key. */
export interface DetectionIndex {
  /** The nights marked "machine", newest first, one note each (absent: none). */
  machineNights?: MachineNightNote[];
  /** The series' status; `lastNight` is its latest night with a result, which tells a series no longer run from a young one. */
  judge(key: string, lastNight?: string): SeriesJudgement;
  /** Markers of the series on the page at `pagePath` (an issue file's link is relative to it). */
  markers(key: string, pagePath: string): Marker[];
}

/**
 * Indexes detection's results by series. An active episode makes a series "regressed" even
 * after its trailing week has absorbed the new level (detection then calls the night stable,
 * but nobody has fixed it).
 */
export function indexDetection(facts: DetectionFacts, published: PublishedIssues): DetectionIndex {
  const verdicts = new Map(facts.verdicts.map((v) => [keyOf(v.identity), v]));
  const episodes = new Map<string, Episode[]>();
  for (const episode of facts.episodes) {
    const key = keyOf(episode.identity);
    episodes.set(key, [...(episodes.get(key) ?? []), episode]);
  }
  return {
    machineNights: machineNightNotes(facts.machineNights ?? []),
    judge(key, lastNight) {
      const active = (episodes.get(key) ?? []).filter(isActive).sort((a, b) => a.firstBad.night.localeCompare(b.firstBad.night))[0];
      const verdict = verdicts.get(key);
      const detectable = verdict?.detectable !== undefined ? { detectable: verdict.detectable } : verdict?.reachKnownFrom !== undefined ? { reachKnownFrom: verdict.reachKnownFrom } : {};
      if (active) {
        const change = active.latestMedian / active.baselineMedian - 1;
        return { status: 'regressed', note: `regressed since ${active.firstBad.night}: ${formatChange(change)} against the level before it`, issue: published.ofEpisode(active), changeSinceEpisode: change, ...detectable };
      }
      if (verdict === undefined) {
        if (facts.night !== undefined && lastNight !== undefined && lastNight < facts.night) return { status: 'not-run', note: `no result on ${facts.night}, the latest night; the last one is from ${lastNight}` };
        return { status: 'insufficient', note: 'detection has not judged the latest night' };
      }
      const reach = verdict.detectable
        ? `; at its settings: ${describeDetectable(verdict.detectable)}`
        : verdict.reachKnownFrom !== undefined
          ? `; too new at its level to tell what it catches (known from its ${verdict.reachKnownFrom}th night there)`
          : '';
      return { status: verdict.notPositive ? 'zero' : verdictStatus[verdict.kind], note: `${verdict.kind}: ${verdict.reason}${reach}`, ...detectable };
    },
    markers(key, pagePath) {
      return (episodes.get(key) ?? []).flatMap((episode): Marker[] => {
        const issue = published.ofEpisode(episode);
        const url = issue && issueHref(issue, pagePath);
        const label = `${episode.kind} ${formatChange(episode.ratio - 1)}${stateNote[episode.state] ?? ''}`;
        const opened: Marker = { night: episode.firstBad.night, kind: episode.kind, label, issueUrl: url, ...(episode.state === 'unconfirmed' ? { unconfirmed: true } : {}) };
        if (!episode.recoveredNight) return [opened];
        return [opened, { night: episode.recoveredNight, kind: 'recovery', label: 'recovered', issueUrl: url }];
      });
    },
  };
}


/** One note per machine night (its suites' reasons joined), newest first. */
function machineNightNotes(found: readonly MachineNight[]): MachineNightNote[] {
  const reasons = new Map<string, string[]>();
  for (const finding of found) {
    if (!finding.machine) continue;
    const list = reasons.get(finding.night) ?? [];
    if (!list.includes(finding.reason)) list.push(finding.reason);
    reasons.set(finding.night, list);
  }
  return [...reasons].sort(([a], [b]) => b.localeCompare(a)).map(([night, list]) => ({ night, reason: list.join('; ') }));
}
