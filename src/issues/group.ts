/**
 * Regressed series grouped into issues: one issue per suite and suspect range, however many
 * workloads and metrics that range slowed. Pure.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { ActiveEpisode, Detectable, Episode, EpisodeState, SeriesVerdict } from '../detect/index.js';
import type { Comparability } from '../history/types.js';
import type { RatioInterval } from '../stats/index.js';

/** One repository's suspect range: last good commit (exclusive) .. first bad commit. */
export interface SuspectRange {
  repo: string;
  from: string;
  to: string;
}

/** One regressed series (workload x metric in one environment) as an issue shows it. */
export interface IssueSeries {
  /** Absent for an episode a dry run of detection would open. */
  episodeId?: number;
  workload: string;
  metric: string;
  unit: string | null;
  environment: Comparability;
  state: EpisodeState;
  /** The last night that measured the series (its episode's last night). */
  lastNight: string;
  /** The pre-regression level. */
  baselineMedian: number;
  /** The latest night's median. */
  newMedian: number;
  /** `newMedian / baselineMedian - 1`. */
  change: number;
  /** Of the first bad night's test. */
  pValue?: number;
  /** Relative noise of one nightly median in the baseline. */
  noise?: number;
  /** What the series catches at its settings, from the reported night's verdict (absent when it was not judged, or its noise is not known yet). */
  detectable?: Detectable;
  /** Judged on the reported night, but too young for its noise, and so its reach, to be known: the night of its history from which it is. */
  reachKnownFrom?: number;
  /** The episode opened on a change of machine class: its last good night ran on `from`, its first bad night on `to`. */
  machineChange?: { from: string; to: string };
  /** The class the reported night ran this series on, when known, and the series' threshold: a night on `machineChange.from` confirms or settles it. */
  tonight?: { machineClass: string; threshold: number };
}

/** What the rerun of one issue group showed before it was filed (`github.confirm`, see confirm.ts). */
export interface Confirmation {
  reproduced: boolean;
  /** The series rerun: the group's largest change. */
  workload: string;
  metric: string;
  unit: string | null;
  /** First bad against last good; absent when no values came back (failures). */
  ratio?: RatioInterval;
  p?: number;
  /** Repeats of both sides together. */
  repeats: number;
  clusterSeconds: number;
}

/** What one issue is about. */
export interface IssueGroup {
  fingerprint: string;
  suite: string;
  lastGoodNight: string;
  firstBadNight: string;
  /** In the target's repository order; the first is the primary repository. */
  ranges: SuspectRange[];
  series: IssueSeries[];
  /** The rerun that confirmed it before filing (`github.confirm`), when there was one. */
  confirmation?: Confirmation;
  /** Why the confirmation rerun failed, when it did: the group is then filed as detected. */
  confirmationError?: string;
  /** The machine classes its last good and first bad nights ran on, when their runs recorded them. */
  lastGoodMachineClass?: string;
  firstBadMachineClass?: string;
}

/**
 * The fingerprint of an issue: a hash of the suite and its suspect range per repository. The
 * same range on a rerun, a retry or the next night gives the same fingerprint. A target without
 * commits (installed packages) has no range; its first bad night stands in for one, so each
 * regression of it still gets its own issue.
 */
export function issueFingerprint(suite: string, ranges: readonly SuspectRange[], firstBadNight: string): string {
  const parts = ranges.length > 0 ? [...ranges].sort((a, b) => a.repo.localeCompare(b.repo)).map((r) => [r.repo, r.from, r.to]) : [firstBadNight];
  const key = JSON.stringify([suite, ...parts]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** An episode as detection reports it: stored, or planned by a dry run. */
export type ReportedEpisode = Episode | ActiveEpisode;

/** What a judged series catches at its settings, or from which night of its history that is known (a young series). */
export type SeriesReach = { detectable: Detectable } | { reachKnownFrom: number };

/**
 * What each judged series catches, by series key, from a night's verdicts: computed when the
 * issues are published, so nothing about it needs storing with the episodes.
 */
export function detectableBySeries(verdicts: readonly SeriesVerdict[]): Map<string, SeriesReach> {
  return new Map(
    verdicts.flatMap((verdict): [string, SeriesReach][] =>
      verdict.detectable ? [[verdict.seriesKey, { detectable: verdict.detectable }]] : verdict.reachKnownFrom !== undefined ? [[verdict.seriesKey, { reachKnownFrom: verdict.reachKnownFrom }]] : [],
    ),
  );
}

/** The machine class each series ran on tonight (where known) and its threshold, by series key, from a night's verdicts. */
export function tonightMachineBySeries(verdicts: readonly SeriesVerdict[]): Map<string, NonNullable<IssueSeries['tonight']>> {
  return new Map(verdicts.flatMap((verdict) => (verdict.latest?.machineClass ? [[verdict.seriesKey, { machineClass: verdict.latest.machineClass, threshold: verdict.threshold }] as const] : [])));
}

/**
 * The stored episodes whose series tonight's verdicts judge a change of the episode's own kind
 * (a regression's series judged a regression): tonight proves the shift, by itself or with the
 * nights since, as opposed to merely not being back yet.
 */
export function provenEpisodes(episodes: readonly ReportedEpisode[], verdicts: readonly SeriesVerdict[]): Set<number> {
  const kinds = new Map(verdicts.map((verdict) => [verdict.seriesKey, verdict.kind]));
  return new Set(episodes.flatMap((episode) => ('id' in episode && episode.id !== undefined && kinds.get(episode.seriesKey) === episode.kind ? [episode.id] : [])));
}

/**
 * Episodes grouped into issues, one group per issue (`membership`: each episode's issue, see
 * {@link issueMembership}; by default as if no issue existed yet). `repositories` is the target's
 * repository order (the primary first); repositories it does not name follow by name.
 * `detectable` (see {@link detectableBySeries}) gives each series its noise and reach, `tonightClasses`
 * ({@link tonightMachineBySeries}) the machine class it ran on tonight and its threshold. A group's
 * range is its first episode's (the one whose range names the issue, when it is reported).
 */
export function groupEpisodes(
  episodes: readonly ReportedEpisode[],
  repositories: readonly string[] = [],
  detectable: ReadonlyMap<string, SeriesReach> = new Map(),
  tonightClasses: ReadonlyMap<string, NonNullable<IssueSeries['tonight']>> = new Map(),
  membership: readonly string[] = issueMembership(episodes, new Map()),
): IssueGroup[] {
  const fingerprintOf = new Map(episodes.map((episode, i) => [episode, membership[i]!]));
  // A group shows the range of the episode whose own range names its issue, when it is reported.
  const namer = new Map<string, ReportedEpisode>();
  for (const episode of episodes) if (ownIssueFingerprint(episode) === fingerprintOf.get(episode)) namer.set(fingerprintOf.get(episode)!, episode);
  const groups = new Map<string, IssueGroup>();
  const ordered = [...episodes].sort((a, b) => a.firstBad.night.localeCompare(b.firstBad.night) || a.seriesKey.localeCompare(b.seriesKey));
  for (const episode of ordered) {
    const fingerprint = fingerprintOf.get(episode)!;
    let group = groups.get(fingerprint);
    if (!group) {
      const named = namer.get(fingerprint) ?? episode;
      group = {
        fingerprint, suite: named.identity.suite, lastGoodNight: named.lastGood.night, firstBadNight: named.firstBad.night, ranges: suspectRanges(named, repositories), series: [],
        ...(named.lastGood.machineClass === undefined ? {} : { lastGoodMachineClass: named.lastGood.machineClass }),
        ...(named.firstBad.machineClass === undefined ? {} : { firstBadMachineClass: named.firstBad.machineClass }),
      };
      groups.set(fingerprint, group);
    }
    group.series.push(issueSeries(episode, detectable.get(episode.seriesKey), tonightClasses.get(episode.seriesKey)));
  }
  return [...groups.values()];
}

/**
 * The issue of each episode (its fingerprint, in the order given). An episode stays in the issue
 * it joined (`issueFingerprint`, stored on the night it joined). One not yet in an issue, taken in
 * the order the episodes opened: the issue of its own suspect range when that issue exists
 * (`tracked`; episodes grouped before overlapping ranges were joined keep theirs); else the first
 * live issue of its suite and kind whose range overlaps its own (the nights from the last good to
 * the first bad one share a night); else a new issue of its own range. One change measures a
 * night early or late on different series (a night ambiguous on one is clearly shifted on
 * another): their ranges overlap, and they make one issue, as Chromium's perf dashboard groups
 * alerts whose revision ranges overlap. Live: with a series still regressed or open, and not
 * closed, so a new episode never joins an issue that recovered or that a maintainer closed.
 */
export function issueMembership(episodes: readonly ReportedEpisode[], tracked: ReadonlyMap<string, TrackedState>): string[] {
  const openedOrder = [...episodes.keys()].sort((a, b) => openingRank(episodes[a]!, episodes[b]!));
  const membership: string[] = new Array(episodes.length);
  const groups = new Map<string, IssueWindow>();
  for (const i of openedOrder) {
    const episode = episodes[i]!;
    const own = ownIssueFingerprint(episode);
    const active = activeIssueStates.includes(episode.state);
    const joinable = (fingerprint: string, group: IssueWindow) =>
      group.live && (tracked.get(fingerprint) ?? 'open') === 'open' && group.suite === episode.identity.suite && group.kind === episode.kind &&
      group.lastGood < episode.firstBad.night && episode.lastGood.night < group.firstBad;
    // An issue nightbench closed once its series recovered stays closed; a series of its range
    // found regressed after that (a late find) is a regression still there, and gets an issue of its own.
    const ownIssue = tracked.has(own) && !(active && tracked.get(own) === 'recovered');
    const fingerprint = episode.issueFingerprint ?? (ownIssue ? own : [...groups].find(([fp, group]) => joinable(fp, group))?.[0] ?? (tracked.has(own) ? laterIssueFingerprint(own, episode) : own));
    membership[i] = fingerprint;
    const group = groups.get(fingerprint);
    if (group) group.live ||= active;
    else groups.set(fingerprint, { suite: episode.identity.suite, kind: episode.kind, lastGood: episode.lastGood.night, firstBad: episode.firstBad.night, live: active });
  }
  return membership;
}

/** What a new episode is matched against: the suite, kind and range of an issue's first episode, and whether a series of it is still regressed. */
interface IssueWindow {
  suite: string;
  kind: ReportedEpisode['kind'];
  lastGood: string;
  firstBad: string;
  live: boolean;
}

/**
 * Whether an issue is still open where it is tracked: open, closed by a maintainer (or by another
 * hand), or closed by nightbench after its series recovered.
 */
export type TrackedState = 'open' | 'closed' | 'recovered';

/** The issue of an active episode whose own range's issue recovered and was closed: the same range, apart. */
function laterIssueFingerprint(own: string, episode: ReportedEpisode): string {
  return createHash('sha256').update(JSON.stringify([own, episode.fingerprint])).digest('hex').slice(0, 16);
}

/** Episode states whose issue takes in a new episode of an overlapping range. */
const activeIssueStates: readonly EpisodeState[] = ['open', 'still-regressed'];

/** Stored episodes in the order they opened (their ids), then those a dry run plans tonight. */
function openingRank(a: ReportedEpisode, b: ReportedEpisode): number {
  const idA = a.id ?? Number.POSITIVE_INFINITY;
  const idB = b.id ?? Number.POSITIVE_INFINITY;
  return idA !== idB ? (idA < idB ? -1 : 1) : a.firstBad.night.localeCompare(b.firstBad.night) || a.seriesKey.localeCompare(b.seriesKey);
}

/** The fingerprint of the issue an episode belongs to: the one it joined, else the one of its own suite and suspect range. */
export function episodeIssueFingerprint(episode: ReportedEpisode): string {
  return episode.issueFingerprint ?? ownIssueFingerprint(episode);
}

/** The fingerprint of the issue of an episode's own suite and suspect range. */
function ownIssueFingerprint(episode: ReportedEpisode): string {
  return issueFingerprint(episode.identity.suite, suspectRanges(episode, []), episode.firstBad.night);
}

function suspectRanges(episode: ReportedEpisode, repositories: readonly string[]): SuspectRange[] {
  const names = [...new Set([...Object.keys(episode.lastGood.commits), ...Object.keys(episode.firstBad.commits)])];
  const rank = (repo: string) => (repositories.includes(repo) ? repositories.indexOf(repo) : repositories.length);
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  // A repository missing on one side (added to the target between the nights) has no range start.
  return names.map((repo) => ({ repo, from: episode.lastGood.commits[repo] ?? episode.firstBad.commits[repo]!, to: episode.firstBad.commits[repo] ?? episode.lastGood.commits[repo]! }));
}

function issueSeries(episode: ReportedEpisode, reach: SeriesReach | undefined, tonight: IssueSeries['tonight']): IssueSeries {
  const { identity } = episode;
  const [from, to] = [episode.lastGood.machineClass, episode.firstBad.machineClass];
  return {
    ...(episode.id === undefined ? {} : { episodeId: episode.id }),
    workload: identity.workload,
    metric: identity.metric,
    unit: episode.unit,
    environment: {
      environmentName: identity.environmentName,
      environmentFingerprint: identity.environmentFingerprint,
      provider: identity.provider,
      clusterShape: identity.clusterShape,
      ...(identity.instanceType === undefined ? {} : { instanceType: identity.instanceType }),
    },
    state: episode.state,
    lastNight: episode.lastNight,
    baselineMedian: episode.baselineMedian,
    newMedian: episode.latestMedian,
    change: episode.latestMedian / episode.baselineMedian - 1,
    pValue: episode.pValue,
    noise: episode.baselineNoise,
    ...reach,
    ...(from !== undefined && to !== undefined && from !== to ? { machineChange: { from, to } } : {}),
    ...(tonight === undefined ? {} : { tonight }),
  };
}
