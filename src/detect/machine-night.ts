/**
 * The machine or the code: whether a night's changes came from the machine (a shared host or CI
 * runner loaded by something else) rather than from the commits. Two signs, either enough:
 * - the canary, a small fixed workload that does not use the target (workloads/dask's `canary`),
 *   moved beyond its noise;
 * - common mode: most of the night's timed series moved together, the same way, beyond their noise;
 * - machine changed: most series ran on another machine class than their baseline (machine-change.ts).
 * A machine night's openings wait for the next night (or a confirming rerun) before they become
 * issues (src/issues/machine-hold.ts). Pure: verdicts in, the finding out.
 *
 * @module
 */
import { formatChange } from '../format/index.js';
import { activeStates, type Episode, type EpisodeChange } from './episodes.js';
import type { SeriesVerdict } from './judge.js';
import { machineChangedNight } from './machine-change.js';
import type { Series } from './series.js';
import type { DetectionPolicy } from './policy.js';
import type { MachineNight, MachineSign } from '../history/episode-rows.js';

export type { MachineNight, MachineSign } from '../history/episode-rows.js';

/** The workload a suite runs as its canary: recorded as its own series, never filed as an issue. */
export const canaryWorkload = 'canary';

/**
 * The canary's metrics that tell the machine's speed, first found wins: the Dask canary's time in
 * its own tasks (pure numpy and Python, no target code), else the runner's wall time.
 */
const canaryMetrics = ['compute_seconds', 'wall_time'];

/** Units of the series the common-mode check counts: times, which a loaded machine stretches (bytes and counts it does not). */
const timeUnits = new Set(['s', 'seconds', 'ms']);

/** Fewest judged timed series for a common-mode finding: two moving together is not "most". */
const minCommonModeSeries = 4;

/** "Most": more than this share of the judged timed series moved the same way. */
const commonModeShare = 0.5;

/** A series "moved" when its change is this many times its noise... */
const movedNoiseMultiple = 2;

/** ...and at least this share of its threshold. */
const movedShareOfThreshold = 0.5;

/**
 * Suite-wide: at least {@link minCommonModeSeries} workloads' timed series moved the same way, and
 * at least this share of the timed series judged. Workloads, not series: one slowed workload moves
 * its wall, work and CPU time together, and a small suite's real regression is not a suite-wide move. Not "most" (the machine's sign): a slow stretch of shared runners
 * moves some of a large suite at once, and so may a commit. Whoever moved it, such a night is one
 * thing, and it waits {@link suiteWideWaitNights} before it is filed (src/issues/machine-hold.ts).
 */
const suiteWideShare = 0.1;

/**
 * Nights a suite-wide night's openings wait: a blip of the runners is back by then, a commit's
 * shift is not. Three, not two: on the first night back a series is still compared with its
 * shifted level, and is counted back within noise only the night after (test/replay/suite-wide.e2e.test.ts).
 */
export const suiteWideWaitNights = 3;

/** Whether many workloads moved together the same way (see {@link suiteWideShare}), the code's change or the machine's. */
export function isSuiteWide(finding: Pick<MachineNight, 'judgedSeries' | 'movedSeries' | 'movedWorkloads'>): boolean {
  return (finding.movedWorkloads ?? finding.movedSeries) >= minCommonModeSeries && finding.movedSeries >= suiteWideShare * finding.judgedSeries;
}

/** The machine finding of a night from its verdicts (every series with a point on the night). */
export function machineNight(night: string, suite: string | undefined, verdicts: readonly SeriesVerdict[], policy: Pick<DetectionPolicy, 'threshold'>): MachineNight {
  const moved = (verdict: SeriesVerdict) => verdict.noiseMultiple! >= movedNoiseMultiple && Math.abs(verdict.change!) >= movedShareOfThreshold * (verdict.threshold ?? policy.threshold);
  const canary = canaryVerdict(verdicts);
  const canaryMoved = canary !== undefined && moved(canary);
  const timed = verdicts.filter((v) => !isCanary(v.identity) && timeUnits.has(v.unit ?? '') && v.change !== undefined && v.noiseMultiple !== undefined);
  const slowerSeries = timed.filter((v) => moved(v) && v.change! > 0);
  const fasterSeries = timed.filter((v) => moved(v) && v.change! < 0);
  const slower = slowerSeries.length;
  const faster = fasterSeries.length;
  const movedSeries = Math.max(slower, faster);
  const movedWorkloads = new Set((slower >= faster ? slowerSeries : fasterSeries).map((v) => `${v.identity.suite}\0${v.identity.workload}`)).size;
  // A move of the whole suite is the machine's only when no commit is involved: a change of the
  // target's code may slow every workload at once, and then it is the code's to answer for.
  const codeChanged = timed.some((v) => v.latest !== undefined && v.lastGood !== undefined && Object.entries(v.latest.commits).some(([repo, sha]) => v.lastGood!.commits[repo] !== sha));
  const commonMode = !codeChanged && timed.length >= minCommonModeSeries && movedSeries / timed.length > commonModeShare;
  const changedMachine = machineChangedNight(verdicts);
  const signs: MachineSign[] = [...(canaryMoved ? ['canary' as const] : []), ...(commonMode ? ['common-mode' as const] : []), ...(changedMachine.changed ? ['machine-changed' as const] : [])];
  const direction = canaryMoved ? (canary.change! > 0 ? 'slower' : 'faster') : commonMode ? (slower >= faster ? 'slower' : 'faster') : undefined;
  const canaryText = canary === undefined ? 'no canary judged' : `canary ${canary.identity.metric} ${formatChange(canary.change!)}${canaryMoved ? '' : ' (within its noise)'}`;
  const commonText = `${movedSeries} of ${timed.length} timed series moved ${slower >= faster ? 'slower' : 'faster'} together${codeChanged ? ', not counted against the machine: the target\'s code changed too' : ''}`;
  return {
    night, suite: suite ?? '', machine: signs.length > 0, signs, ...(direction ? { direction } : {}),
    ...(canary === undefined ? {} : { canaryChange: canary.change! }),
    judgedSeries: timed.length, movedSeries, movedWorkloads,
    reason: `${canaryText}; ${commonText}${changedMachine.changed ? `; machine changed: ${changedMachine.reason}` : ''}`,
  };
}

/** The canary series that tells the machine's speed, if the canary was judged tonight. */
function canaryVerdict(verdicts: readonly SeriesVerdict[]): SeriesVerdict | undefined {
  const judged = verdicts.filter((v) => isCanary(v.identity) && v.change !== undefined && v.noiseMultiple !== undefined);
  for (const metric of canaryMetrics) {
    const found = judged.find((v) => v.identity.metric === metric);
    if (found) return found;
  }
  return undefined;
}

/** True for the canary's series: detection judges them like any other, nobody files them. */
export function isCanary(identity: { workload: string }): boolean {
  return identity.workload === canaryWorkload;
}

/**
 * Per series, the machine nights of its provisional episodes: unfiled episodes that began on a
 * machine night and have not (yet) outlasted it, i.e. recovered, back within noise tonight, or
 * not seen since. Such a night is no level of the series: after a night of load alone the series
 * is judged against its old level again, with no blind nights. A machine that stays faster or
 * slower (a new host) is a level once its episode outlasts the first night.
 */
export function provisionalMachineNights(episodes: readonly Episode[], machineNights: ReadonlySet<string>): Map<string, Set<string>> {
  const nights = new Map<string, Set<string>>();
  if (machineNights.size === 0) return nights;
  for (const episode of episodes) {
    if (episode.issueNumber !== undefined || !machineNights.has(episode.firstBad.night)) continue;
    const persisted = activeStates.includes(episode.state) && episode.nightsBack === 0 && episode.lastNight > episode.firstBad.night;
    if (persisted) continue;
    const set = nights.get(episode.seriesKey) ?? new Set<string>();
    set.add(episode.firstBad.night);
    nights.set(episode.seriesKey, set);
  }
  return nights;
}

/** The series with the points of its provisional machine nights before `night` marked disturbed: no later night is compared with them. */
export function withoutMachineNights(one: Series, provisionalNights: ReadonlyMap<string, ReadonlySet<string>>, night: string): Series {
  const nights = provisionalNights.get(one.key);
  if (nights === undefined) return one;
  return { ...one, points: one.points.map((point) => (point.night !== night && point.status === 'ok' && nights.has(point.night) ? { ...point, status: 'disturbed' as const } : point)) };
}

/**
 * Tonight's openings without those that are an active, unfiled episode which began on a machine
 * night seen again: with that night left out of the comparison the shift seems to begin after
 * it, but it began there, and the older episode (whose range holds the machine night) goes on.
 */
export function keepMachineEpisodes(changes: readonly EpisodeChange[], episodes: readonly Episode[], machineNights: ReadonlySet<string>): EpisodeChange[] {
  if (machineNights.size === 0) return [...changes];
  const provisional = provisionalMachineNights(episodes, machineNights);
  const pending = episodes.filter((e) => activeStates.includes(e.state) && provisional.get(e.seriesKey)?.has(e.firstBad.night));
  return changes.filter((change) => {
    if (change.action !== 'open') return true;
    const opened = change.episode;
    return !pending.some((e) => e.seriesKey === opened.seriesKey && e.kind === opened.kind && e.firstBad.night > opened.lastGood.night && e.firstBad.night < opened.firstBad.night);
  });
}
