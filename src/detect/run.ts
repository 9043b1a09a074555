/**
 * Detection over the history: read the lookback, group series, compare, judge, plan episodes
 * (all pure, `planNight`), then store the plan: the one write. What `nightbench detect` and `nightbench nightly` call.
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { ResultRow } from '../history/types.js';
import { isCalendarNight } from '../night.js';
import { harnessVersion } from '../version.js';
import { compareNight } from './compare.js';
import { falseAlarmNoiseFloors, type FalseAlarmStep } from './false-alarms.js';
import { activeStates, planEpisodes, planRetirements, type Episode, type EpisodeChange, type NewEpisode } from './episodes.js';
import { judge, type SeriesVerdict, type VerdictKind } from './judge.js';
import { sameClassView, withMachine } from './machine-change.js';
import { keepMachineEpisodes, machineNight, provisionalMachineNights, withoutMachineNights, type MachineNight } from './machine-night.js';
import { lookbackResults, readResults, type DetectionPolicy, type Direction } from './policy.js';
import { groupSeries, seriesOfLastResults, seriesOfWorkloadNights, type Series } from './series.js';
import type { DeclaredDirection } from '../history/regression-queries.js';

/** The direction the suite declares for a metric of a workload, if any. */
export type DeclaredDirections = (suite: string, workload: string, metric: string) => Direction | undefined;

export { lookbackResults };

/**
 * The oldest night detection reads from the history to judge `night`: as many nights with a
 * nightly run (of `suite`) as detection reads results (`readResults`: the lookback and the
 * second look's earlier baseline when `earlierBaseline` is set), since the windows count results and not calendar days;
 * '' (everything before `night`) when the history holds fewer.
 */
export function readFrom(store: Pick<HistoryStore, 'runs'>, policy: Pick<DetectionPolicy, 'windowDays' | 'lookbackDays' | 'earlierBaseline' | 'earlierBaselineResults'>, night: string, suite?: string): string {
  return nightsBack(store, readResults(policy), night, suite);
}

/** The oldest of the `results` nightly nights (of `suite`) up to `night`; '' when the history holds fewer. */
function nightsBack(store: Pick<HistoryStore, 'runs'>, results: number, night: string, suite?: string): string {
  return store.runs.nightlyNightsBack(night, results, suite) ?? '';
}

export interface DetectOptions {
  /** The night to judge: YYYY-MM-DD or an ISO timestamp (its date counts). Default: the latest nightly night. */
  now?: string;
  /** Only this suite's series. */
  suite?: string;
  /** Plan the episode changes without storing them. */
  dryRun?: boolean;
  /**
   * The nightly series over a range holding the night's lookback (its last
   * {@link readResults} results before the night, and the night), read and grouped once: a replay judges night after night without reading and grouping
   * the lookback again each time. Default: read from the history.
   */
  series?: readonly Series[];
}

/** An episode still regressed after tonight; `id` is absent for one a dry run would open. */
export type ActiveEpisode = NewEpisode & { id?: number; issueNumber?: number; issueFingerprint?: string };

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
  /** Episodes of the lookback that a confirmation rerun did not reproduce (github.confirm): kept, not filed. */
  unconfirmedEpisodes: Episode[];
  /** Whether the machine, not the code, moved the night (`machine-night.ts`); absent without a night. */
  machine?: MachineNight;
}

const verdictKinds: readonly VerdictKind[] = ['regression', 'improvement', 'stable', 'failed', 'disturbed', 'missing', 'insufficient-baseline'];

/** The series of a night detection could not judge, by cause. */
export interface UnjudgedCounts {
  /** Too few good nights of history yet. */
  youngHistory: number;
  /** Zero or negative values: no relative change to judge, however long the history. */
  notPositive: number;
  failed: number;
  disturbed: number;
  missing: number;
}

export function unjudgedCounts(report: Pick<DetectionReport, 'verdicts' | 'counts'>): UnjudgedCounts {
  const notPositive = report.verdicts.filter((verdict) => verdict.notPositive).length;
  const { counts } = report;
  return { youngHistory: counts['insufficient-baseline'] - notPositive, notPositive, failed: counts.failed, disturbed: counts.disturbed, missing: counts.missing };
}

/**
 * Judges every series of the night (default: the latest) against its history and advances the
 * stored episodes: {@link assessNight}, then one write. Idempotent: a second call for the same
 * night changes nothing.
 */
export function detectRegressions(store: Pick<HistoryStore, 'runs' | 'episodes' | 'triage'>, policy: DetectionPolicy, options: DetectOptions = {}): DetectionReport {
  // A dry run stores nothing, so it takes no version (taking one is a write: judged-night-queries.ts).
  if (options.dryRun) return assessNight(store, policy, options);
  const readVersion = store.episodes.historyVersion();
  const planned = assessNight(store, policy, options);
  if (planned.night === undefined) return planned;
  // Only the latest night is read back (a replay or a backfill judges older ones).
  const latest = planned.night === store.runs.latestNightlyNight(options.suite);
  const judged = latest
    ? {
        readVersion,
        night: { suite: options.suite ?? '', night: planned.night, policy: policyFingerprint(policy), verdicts: JSON.stringify(planned.verdicts), machine: planned.machine ? JSON.stringify(planned.machine) : null },
        at: new Date().toISOString(),
      }
    : undefined;
  const openedIds = store.episodes.recordNight(planned.changes, planned.machine, judged);
  return { ...planned, dryRun: false, openedIds, activeEpisodes: store.episodes.episodes({ suite: options.suite, states: activeStates }) };
}

/** A night's verdicts, as the job summary, the pages and `tune` read them. */
export interface JudgedNight {
  /** The judged night; undefined when the history has no nightly run. */
  night?: string;
  verdicts: SeriesVerdict[];
  counts: Record<VerdictKind, number>;
  machine?: MachineNight;
  /** Read as `detectRegressions` stored them, not judged again. */
  stored: boolean;
}

/**
 * The night's verdicts (default: the latest night) as detection stored them when it judged it,
 * while that still holds: the same night, policy and nightbench version, and nothing written
 * since to what detection reads (the history's version). Otherwise judged again, without writing
 * ({@link assessNight}): at 20,000 series that is 3.6 s, which the summary and the pages each spent.
 */
export function judgedNight(store: Pick<HistoryStore, 'runs' | 'episodes' | 'triage'>, policy: DetectionPolicy, options: { now?: string; suite?: string } = {}): JudgedNight {
  store.runs.assertSuiteRecorded(options.suite);
  const night = options.now !== undefined ? nightOf(options.now) : store.runs.latestNightlyNight(options.suite);
  const stored = night === undefined ? undefined : store.episodes.judgedNight(options.suite ?? '');
  if (stored?.current && stored.night === night && stored.policy === policyFingerprint(policy)) {
    const verdicts = JSON.parse(stored.verdicts) as SeriesVerdict[];
    return { night, verdicts, counts: countVerdicts(verdicts), ...(stored.machine === null ? {} : { machine: JSON.parse(stored.machine) as MachineNight }), stored: true };
  }
  const { verdicts, counts, machine } = assessNight(store, policy, { ...options, ...(night === undefined ? {} : { now: night }) });
  return { night, verdicts, counts, ...(machine ? { machine } : {}), stored: false };
}

/**
 * The stored verdicts' form: raised with any change to a verdict's fields or to how its figures
 * are computed, so that verdicts stored by an older build of the same nightbench version are
 * judged again, not read (2: `reachKnownFrom`, sensitivity read as the persistence path's t;
 * 3: the repeats' pooled spread clipped, `pooledWithinSpread`; 4: the sensitivity figures with the
 * threshold read as a gate and, at one repeat, the nights' own spread; 5: the nights' own lag-1
 * correlation in the sensitivity figures; 6: improvements held below persistZ + improvementMarginZ,
 * `heldImprovementFrom`; 7: the rank test in the sensitivity figures, `rankStep`; 8: a stable
 * series judged again for a regression with the results before the lookback in its baseline;
 * 9: the nights' correlation allowed for at most their spread beyond the repeats', `correlationAllowed`;
 * 10: the earlier results at the level judged last in the fast path's spread and the persistence
 * path's rank test, `levelMemory`; 11: a series' first-night sensitivity read at the young
 * series' gate while it is young, `firstNightThreshold`, and a lookback shorter than 20 results
 * ending the young series' gate; 12: the nights' spread pooled with the repeats' floor where
 * it shows no sign of exceeding it, `noiseOverFloor`; 13: the persistence path no longer ranks a
 * shift against the level's earlier nights, only the fast path reads them; 14: a night within
 * sqrt(2) noise of an earlier night at its level is that level's precedent, `precedentNoiseUnits`;
 * 15: the persistence path reads a night's level as the Huber M-estimate of its repeats where the
 * nights spread no more than the repeats imply, `nightsAreTheirRepeats`).
 */
const verdictFormat = 15;

/** What stored verdicts were judged with: a change of any may change every verdict. */
function policyFingerprint(policy: DetectionPolicy): string {
  return JSON.stringify({ nightbench: harnessVersion, verdictFormat, policy });
}

/**
 * What detection finds for the night, read from the history and planned, never written: what
 * `detect --dry-run` shows, and what {@link judgedNight} falls back on.
 */
export function assessNight(store: Pick<HistoryStore, 'runs' | 'episodes' | 'triage'>, policy: DetectionPolicy, options: Omit<DetectOptions, 'dryRun'> = {}): DetectionReport {
  store.runs.assertSuiteRecorded(options.suite);
  const night = options.now !== undefined ? nightOf(options.now) : store.runs.latestNightlyNight(options.suite);
  if (night === undefined) return planNight([], [], policy, { suite: options.suite });
  // A workload an incomplete run cut short is no point of its series: it is never judged.
  const since = readFrom(store, policy, night, options.suite);
  const series = options.series
    ? seriesOfLastResults(options.series.filter((one) => options.suite === undefined || one.identity.suite === options.suite), night, readResults(policy))
    : seriesOfWorkloadNights(store.runs.streamWorkloadNights({ kind: 'nightly', suite: options.suite, sinceNight: since, wholePointsOnly: true }), { from: since, to: night });
  return planNight(series, store.episodes.episodes({ suite: options.suite }), policy, {
    // An episode is retired once its series has no result in the lookback, where it is judged:
    // the results before it that the second look reads are baseline only.
    night, suite: options.suite, lookbackFrom: nightsBack(store, lookbackResults(policy), night, options.suite), declared: declaredDirections(store.runs.metricDirections()), falseAlarms: store.triage.falseAlarmEpisodes(),
    machineNights: new Set(store.episodes.machineNights({ sinceNight: since, machineOnly: true }).map((m) => m.night)),
  });
}

/**
 * The pure pipeline of one night: compare, judge, plan. `series`: those of the night's lookback
 * (see {@link lookbackResults}), in any order, each read once (so they may be built as judged:
 * at 20,000 series, points that die young cost the garbage collector far less than a whole
 * night's held at once). A report with `dryRun` set: nothing is stored.
 * `falseAlarms`: the episodes maintainers called false alarms, which raise their series' noise.
 */
export function planNight(
  series: Iterable<Series>,
  episodes: readonly Episode[],
  policy: DetectionPolicy,
  options: {
    night?: string;
    suite?: string;
    /** The oldest night of the lookback: an active episode no ok night advanced since before it is retired ('' retires none). */
    lookbackFrom?: string;
    declared?: DeclaredDirections;
    falseAlarms?: readonly FalseAlarmStep[];
    machineNights?: ReadonlySet<string>;
  },
): DetectionReport {
  const { night, suite } = options;
  if (night === undefined) return { suite, dryRun: true, verdicts: [], counts: countVerdicts([]), changes: [], openedIds: [], activeEpisodes: [], unconfirmedEpisodes: [] };
  let since = night;
  const verdicts = judgeNight(oldestNightSeen(series, (first) => (since = first < since ? first : since)), episodes, policy, night, options.declared, options.falseAlarms, options.machineNights);
  const counts = countVerdicts(verdicts);
  const judged = keepMachineEpisodes(planEpisodes(verdicts, episodes, policy), episodes, options.machineNights ?? new Set());
  const changes = [...judged, ...planRetirements(episodes, judged, night, options.lookbackFrom ?? '', suite)];
  const unconfirmedEpisodes = episodes.filter((e) => e.state === 'unconfirmed' && e.firstBad.night >= since && e.firstBad.night <= night);
  const machine = machineNight(night, suite, verdicts, policy);
  return { night, suite, dryRun: true, verdicts, counts, changes, openedIds: [], activeEpisodes: activeAfter(episodes, changes), unconfirmedEpisodes, machine };
}

function countVerdicts(verdicts: readonly SeriesVerdict[]): Record<VerdictKind, number> {
  const counts = Object.fromEntries(verdictKinds.map((kind) => [kind, 0])) as Record<VerdictKind, number>;
  for (const verdict of verdicts) counts[verdict.kind]++;
  return counts;
}

/** The series, each first night told to `see` as the series goes by. */
function* oldestNightSeen(series: Iterable<Series>, see: (firstNight: string) => void): Generator<Series> {
  for (const one of series) {
    if (one.points[0] !== undefined) see(one.points[0].night);
    yield one;
  }
}

/** The suites' declared directions as a lookup; `none` leaves the default. */
function declaredDirections(declared: readonly DeclaredDirection[]): DeclaredDirections {
  const byKey = new Map(declared.filter((d) => d.direction !== 'none').map((d) => [`${d.suite}\0${d.workload}\0${d.metric}`, d.direction as Direction]));
  return (suite, workload, metric) => byKey.get(`${suite}\0${workload}\0${metric}`);
}

/**
 * The pure pipeline up to the verdicts: groups the rows up to `night` (those after it cost a
 * comparison each) and judges every series with a point on `night` against its lookback.
 */
export function judgeRows(
  rows: readonly ResultRow[],
  episodes: readonly Episode[],
  policy: DetectionPolicy,
  night: string,
  declared?: DeclaredDirections,
  falseAlarms?: readonly FalseAlarmStep[],
  machineNights?: ReadonlySet<string>,
): SeriesVerdict[] {
  return judgeNight(groupSeries(rows, { to: night }), episodes, policy, night, declared, falseAlarms, machineNights);
}

/**
 * The verdicts of every series with a point on `night`, in the order of their keys. A series is compared only with nights
 * from its latest episode's first bad night on (re-baselined after a level shift, or after the
 * level a maintainer accepted), or from the night it recovered. `declared` gives the direction
 * the suite declares for a metric; a series' recent `falseAlarms` floor its noise (`false-alarms.ts`).
 * An unfiled episode that began on one of the `machineNights` is provisional until a later night
 * shows it still shifted: it re-baselines nothing and its night is no baseline of its series
 * (`machine-night.ts`). A night is compared only with the nights of its machine class when the
 * lookback holds enough of them (`machine-change.ts`). A series holding an improvement not yet
 * proved enough to open (`SeriesVerdict.heldImprovementFrom`) is also judged from that improvement's
 * first night, and a regression found so is its verdict.
 */
export function judgeNight(
  series: Iterable<Series>,
  episodes: readonly Episode[],
  policy: DetectionPolicy,
  night: string,
  declared: DeclaredDirections = () => undefined,
  falseAlarms: readonly FalseAlarmStep[] = [],
  machineNights: ReadonlySet<string> = new Set(),
): SeriesVerdict[] {
  const noiseFloors = falseAlarmNoiseFloors(falseAlarms, policy, night);
  const provisionalNights = provisionalMachineNights(episodes, machineNights);
  const levelFrom = new Map<string, string>();
  const levelStart = new Map<string, string>();
  for (const episode of episodes) {
    // An episode opened by this very night (judged again by the summary or the pages) is what the
    // night found, not a level to compare it with: its first bad night may be set back before it.
    if (episode.state === 'open' && episode.lastNight >= night) continue;
    if (provisionalNights.get(episode.seriesKey)?.has(episode.firstBad.night)) continue;
    // The series' current level began on its latest episode's first bad night, recovered or not:
    // the levels it showed since are what one night reaching again proves nothing about.
    if (episode.firstBad.night < night && episode.firstBad.night > (levelStart.get(episode.seriesKey) ?? '')) levelStart.set(episode.seriesKey, episode.firstBad.night);
    // A recovered regression (the fix) re-baselines from its recovery, so the fix is not taken
    // for an improvement. A recovered improvement does not: its loss is a slowdown against the
    // improved level, and is judged as one.
    const from = episode.state === 'recovered' && episode.kind === 'regression' ? (episode.recoveredNight ?? episode.firstBad.night) : episode.firstBad.night;
    if (from >= night) continue;
    const seen = levelFrom.get(episode.seriesKey);
    if (seen === undefined || from > seen) levelFrom.set(episode.seriesKey, from);
  }
  const verdicts: SeriesVerdict[] = [];
  for (const judged of series) {
    const one = withoutMachineNights(judged, provisionalNights, night);
    // A night is compared with the nights of its own machine class when there are enough of them.
    const view = sameClassView(one, night, policy);
    const compared = view?.series ?? one;
    const compareFrom = (from: string | undefined, level: string | undefined) =>
      compareNight(compared, { night, windowResults: policy.windowDays, lookbackResults: policy.lookbackDays, earlierResults: readResults(policy) - lookbackResults(policy), baselineStart: from, levelStart: level, machineNights });
    const comparison = compareFrom(levelFrom.get(one.key), levelStart.get(one.key));
    if (comparison.latest === undefined) continue;
    const declaredDirection = declared(one.identity.suite, one.identity.workload, one.identity.metric);
    const verdict = judge(compared, comparison, policy, declaredDirection, noiseFloors.get(one.key));
    // An improvement not yet proved enough to open is a level a regression tonight is judged
    // against too: a slowdown right after a speed-up would otherwise hide behind it.
    const held = verdict.heldImprovementFrom;
    const againstHeld = held !== undefined && verdict.kind !== 'regression' ? judge(compared, compareFrom(held, held), policy, declaredDirection, noiseFloors.get(one.key)) : undefined;
    verdicts.push(withMachine(againstHeld?.kind === 'regression' ? { ...againstHeld, heldImprovementFrom: held, reason: `${againstHeld.reason}, against the improved level since ${held} (an improvement not yet proved enough to open)` } : verdict, view));
  }
  return verdicts.sort((a, b) => (a.seriesKey < b.seriesKey ? -1 : a.seriesKey > b.seriesKey ? 1 : 0));
}

/** The active episodes once `changes` were applied, without storing them (for a dry run). */
function activeAfter(episodes: readonly Episode[], changes: readonly EpisodeChange[]): ActiveEpisode[] {
  const ended = new Set(changes.flatMap((change) => (change.action === 'update' && !activeStates.includes(change.to) ? [change.id] : [])));
  const kept: ActiveEpisode[] = episodes.filter((episode) => activeStates.includes(episode.state) && !ended.has(episode.id));
  return [...kept, ...changes.flatMap((change) => (change.action === 'open' ? [change.episode] : []))];
}

function nightOf(now: string): string {
  const night = now.slice(0, 10);
  if (!isCalendarNight(night)) {
    throw new NightbenchError('usage', `the night to judge must be a date YYYY-MM-DD, got "${now}"`);
  }
  return night;
}
