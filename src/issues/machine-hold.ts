/**
 * Openings that wait because the machine, not the code, may have moved the night
 * (src/detect/machine-night.ts). Pure: the plan in, the plan with such openings skipped out.
 *
 * - On a machine night every opening waits for the next night, unless a confirmation rerun
 *   decides (`github.confirm: rerun` interleaves last good and first bad on the same machine, so
 *   the load weighs on both sides).
 * - A group that began on a suite-wide night that is no machine night (many series moved
 *   together, see `isSuiteWide`, and a commit changed) waits `suiteWideWaitNights` nights, then is treated as one that began on a machine night:
 *   a suite-wide blip is back by then and files nothing; what stayed is one issue.
 * - On a later night, a group that began on a machine night leaves out its never-filed series
 *   that are back within noise of their old level or recovered (the shift did not outlast the
 *   load), in every action, so no issue lists them or claims their episodes; an opening still
 *   waits when that is all of them. What is still there is filed once a night after the machine
 *   night proves it alone (detection judges that night a regression against the old level, the
 *   machine night left out), or once it has stayed `suiteWideWaitNights` nights: a night that is
 *   merely not back yet is the load's aftermath as often as the code (a real recording's night
 *   after two busy loops ran +38% at 13% noise, and back the night after).
 * - An opening whose series began on another machine class than their baseline's (a runner of
 *   another CPU type) waits for a night on the baseline's class, or a rerun (`holdMachineChange`).
 *
 * @module
 */
import { daysBetween } from '../night.js';
import { suiteWideWaitNights, type MachineNight } from '../detect/machine-night.js';
import type { IssueSeries, ReportedEpisode } from './group.js';
import type { IssueAction } from './plan.js';

export interface HoldContext {
  night: string;
  /** Tonight's finding. */
  machine?: MachineNight;
  /** Nights found to be machine nights (tonight's included or not). */
  machineNights: ReadonlySet<string>;
  /** Nights on which many series moved together, the machine or the code (`isSuiteWide`), tonight's included. */
  suiteWideNights?: ReadonlySet<string>;
  /** Tonight's reported episodes, as updated by tonight (their `nightsBack`). */
  episodes: readonly ReportedEpisode[];
  /** `github.confirm` is `rerun` and a rerun port is there: the rerun decides instead of the wait. */
  rerunConfirms: boolean;
  /** Episodes (ids) whose series detection judged tonight a change of their own kind, tonight alone or with the nights since. */
  provenTonight?: ReadonlySet<number>;
}

export function holdOpenings(actions: readonly IssueAction[], context: HoldContext): IssueAction[] {
  const settled = new Set(context.episodes.flatMap((e) => ('id' in e && e.id !== undefined && e.issueNumber === undefined && (e.nightsBack > 0 || e.state === 'recovered') ? [e.id] : [])));
  return actions.map((action): IssueAction => {
    const { group } = action;
    if (action.kind === 'open' && !context.rerunConfirms && group.series.some((s) => s.machineChange !== undefined)) return holdMachineChange(action, settled);
    if (action.kind === 'open' && context.machine?.machine && !context.rerunConfirms) {
      return { kind: 'skip', group, reason: `waiting: ${context.night} was a machine night (${context.machine.reason}); filed when a later night proves it` };
    }
    // A machine night keeps the machine's rule (a night's wait, or the rerun): the suite-wide wait is for the others.
    const suiteWide = !context.machineNights.has(group.firstBadNight) && (context.suiteWideNights?.has(group.firstBadNight) ?? false);
    if (action.kind === 'open' && suiteWide && daysBetween(group.firstBadNight, context.night) < suiteWideWaitNights) {
      return { kind: 'skip', group, reason: `waiting: many series moved together on ${group.firstBadNight}; filed if still shifted ${suiteWideWaitNights} nights later` };
    }
    if (!context.machineNights.has(group.firstBadNight) && !suiteWide) return action;
    const stayed = group.series.filter((s) => !(s.episodeId !== undefined && settled.has(s.episodeId)));
    if (action.kind === 'open' && !stayed.some((s) => s.state === 'open' || s.state === 'still-regressed')) {
      return { kind: 'skip', group, reason: `waiting: began on ${suiteWide ? 'suite-wide' : 'machine'} night ${group.firstBadNight} and is back within noise of its old level tonight` };
    }
    const proven = stayed.some((s) => s.episodeId !== undefined && context.provenTonight?.has(s.episodeId));
    if (action.kind === 'open' && !context.rerunConfirms && !suiteWide && !proven && daysBetween(group.firstBadNight, context.night) < suiteWideWaitNights) {
      return { kind: 'skip', group, reason: `waiting: began on machine night ${group.firstBadNight}, not back tonight but not beyond its noise either; filed when a night proves it, or ${suiteWideWaitNights} nights on` };
    }
    return stayed.length === group.series.length || stayed.length === 0 ? action : { ...action, group: { ...group, series: stayed } };
  });
}

/**
 * An opening whose series began on another machine class than their baseline's: on a new CPU
 * type the same code measures up to 1.5x apart, so only a night on the baseline's class (or a
 * rerun, which runs both sides on one machine) tells the code's share. Filed once a series that
 * opened like for like shows it, or one that ran on the baseline's class tonight is still beyond
 * its threshold of its old level there (with every series not back); waits while none does;
 * leaves out series back within noise on the baseline's class.
 */
function holdMachineChange(action: IssueAction & { kind: 'open' }, settled: ReadonlySet<number>): IssueAction {
  const { group } = action;
  const isSettled = (s: IssueSeries) => s.episodeId !== undefined && settled.has(s.episodeId);
  const onBaselineClass = (s: IssueSeries) => s.machineChange !== undefined && s.tonight?.machineClass === s.machineChange.from;
  const stayed = group.series.filter((s) => !(onBaselineClass(s) && isSettled(s)));
  // Beyond noise is not enough here: a night of noise within the threshold would file a machine's change.
  const confirmed = stayed.filter((s) => s.machineChange === undefined || (onBaselineClass(s) && Math.abs(s.change) >= s.tonight!.threshold));
  if (confirmed.length > 0) return stayed.length === group.series.length ? action : { ...action, group: { ...group, series: stayed } };
  const change = group.series.find((s) => s.machineChange !== undefined)!.machineChange!;
  const why = stayed.length === 0 ? `and is back within noise of its old level on ${change.from} tonight` : `(${change.from} before, ${change.to} since); filed when a night on ${change.from}, or a rerun, still shows it`;
  return { kind: 'skip', group, reason: `waiting: began on a machine change ${why}` };
}
