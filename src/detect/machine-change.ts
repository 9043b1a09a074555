/**
 * Nights on another machine (src/detect/machine-class.ts). Shared CI runners come on several
 * CPU types whose speeds differ by up to 1.5x, so a night is compared with the nights of its own
 * machine class when the history has enough of them, and a change found across classes is marked
 * as a machine change: its episode waits for a night on the baseline's class, or a rerun, before
 * it becomes an issue (src/issues/machine-hold.ts). Pure. A history without machine classes
 * (recorded before they were, or imported without them) is judged exactly as before.
 *
 * @module
 */
import type { NightRef, SeriesVerdict } from './judge.js';
import type { MachineComparison } from './machine-class.js';
import type { DetectionPolicy } from './policy.js';
import type { Series } from './series.js';

/** A series narrowed to the nights of one class. */
export interface ClassView {
  series: Series;
  classNights: number;
}

/**
 * The series seen from tonight's machine class: only its nights, when the nights read for the
 * lookback hold at least `minBaselineNights` (3) ok ones before tonight; undefined otherwise
 * (compare with every class).
 * Why that many: it is the fewest nights detection judges any night against; with fewer, the
 * night would be judged against every class anyway, so it is, and a change across classes is
 * held instead. From 3 to 9 nights of the class only the fast path (2 repeats or more) judges,
 * since the persistence path trusts a noise figure from 10 nights (judge.ts) and waits; on four
 * runner classes a quarter of the nights each (bench/machine-mix.ts), asking for 10 left the 30
 * nights' lookback too few of each class to find a planted +30% at all.
 * The windows count results (`compare.ts`), so the fast path's baseline is the class's last
 * `windowDays` ok nights, as many as on a history of one machine.
 */
export function sameClassView(series: Series, night: string, policy: Pick<DetectionPolicy, 'minBaselineNights'>): ClassView | undefined {
  const tonight = series.points.find((point) => point.night === night);
  const machineClass = tonight?.machineClass;
  if (machineClass === undefined) return undefined;
  const points = series.points.filter((point) => point.machineClass === machineClass);
  const before = points.filter((point) => point.night < night && point.status === 'ok');
  if (before.length < policy.minBaselineNights) return undefined;
  return { series: { ...series, points }, classNights: before.length };
}

/** How the machine of `to` stands to that of `from` (a baseline night); undefined when `to`'s class is unknown. */
export function machineChangeOf(from: Pick<NightRef, 'machineClass'> | undefined, to: Pick<NightRef, 'machineClass'>): MachineComparison | undefined {
  if (to.machineClass === undefined) return undefined;
  const baselineClass = from?.machineClass;
  return { machineClass: to.machineClass, ...(baselineClass === undefined ? {} : { baselineClass }), changed: baselineClass !== undefined && baselineClass !== to.machineClass };
}

/**
 * The verdict with its machine: for a change, the class of its first bad night against its last
 * good night's; otherwise tonight's against the last good night's.
 */
export function withMachine(verdict: SeriesVerdict, view: ClassView | undefined): SeriesVerdict {
  const night = verdict.firstBad ?? verdict.latest;
  const machine = night && machineChangeOf(verdict.lastGood, night);
  if (machine === undefined) return verdict;
  return { ...verdict, machine: view === undefined ? machine : { ...machine, sameClassNights: view.classNights } };
}

/** True when most of the night's verdicts that know their machine ran on another class than their baseline. */
export function machineChangedNight(verdicts: readonly SeriesVerdict[]): { changed: boolean; reason?: string } {
  const known = verdicts.filter((verdict) => verdict.machine?.baselineClass !== undefined);
  const changed = known.filter((verdict) => verdict.machine!.changed);
  if (known.length === 0 || changed.length * 2 <= known.length) return { changed: false };
  const { baselineClass, machineClass } = changed[0]!.machine!;
  return { changed: true, reason: `ran on ${machineClass}, its baseline on ${baselineClass} (${changed.length} of ${known.length} series)` };
}
