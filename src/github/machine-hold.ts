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
 *   waits when that is all of them. A shift still there the next night is filed as usual.
 *
 * @module
 */
import { nightsBetween } from '../detect/compare.js';
import { suiteWideWaitNights, type MachineNight } from '../detect/machine-night.js';
import type { ReportedEpisode } from './group.js';
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
}

export function holdOpenings(actions: readonly IssueAction[], context: HoldContext): IssueAction[] {
  const settled = new Set(context.episodes.flatMap((e) => ('id' in e && e.id !== undefined && e.issueNumber === undefined && (e.nightsBack > 0 || e.state === 'recovered') ? [e.id] : [])));
  return actions.map((action): IssueAction => {
    const { group } = action;
    if (action.kind === 'open' && context.machine?.machine && !context.rerunConfirms) {
      return { kind: 'skip', group, reason: `waiting: ${context.night} was a machine night (${context.machine.reason}); filed if still regressed on the next night` };
    }
    // A machine night keeps the machine's rule (a night's wait, or the rerun): the suite-wide wait is for the others.
    const suiteWide = !context.machineNights.has(group.firstBadNight) && (context.suiteWideNights?.has(group.firstBadNight) ?? false);
    if (action.kind === 'open' && suiteWide && nightsBetween(group.firstBadNight, context.night) < suiteWideWaitNights) {
      return { kind: 'skip', group, reason: `waiting: many series moved together on ${group.firstBadNight}; filed if still shifted ${suiteWideWaitNights} nights later` };
    }
    if (!context.machineNights.has(group.firstBadNight) && !suiteWide) return action;
    const stayed = group.series.filter((s) => !(s.episodeId !== undefined && settled.has(s.episodeId)));
    if (action.kind === 'open' && !stayed.some((s) => s.state === 'open' || s.state === 'still-regressed')) {
      return { kind: 'skip', group, reason: `waiting: began on ${suiteWide ? 'suite-wide' : 'machine'} night ${group.firstBadNight} and is back within noise of its old level tonight` };
    }
    return stayed.length === group.series.length || stayed.length === 0 ? action : { ...action, group: { ...group, series: stayed } };
  });
}
