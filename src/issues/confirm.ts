/**
 * Confirmation before filing (`github.confirm`): every planned opening is first rerun, last good
 * against first bad as an interleaved A/B, through a port (the nightly's runs it on the cluster,
 * tests and the quality bench on a simulated runner). A reproduced group opens with the
 * confirmation's figures; one that does not becomes an `unconfirmed` action, never filed.
 *
 * @module
 */
import { firstLine } from '../errors.js';
import type { Log } from '../log.js';
import type { Confirmation, IssueGroup } from './group.js';
import type { IssueAction } from './plan.js';

/** Reruns a group's regression. */
export type ConfirmPort = (group: IssueGroup) => Promise<Confirmation>;

/**
 * The plan with each opening confirmed first: reproduced ones open with their confirmation, the
 * others are unconfirmed. A rerun that fails (the cluster, the target) proves nothing either way:
 * the group opens as it would without confirmation, saying why, so no detection waits on it.
 */
export async function confirmOpenings(actions: readonly IssueAction[], confirm: ConfirmPort, log: Log): Promise<IssueAction[]> {
  const confirmed: IssueAction[] = [];
  for (const action of actions) {
    if (action.kind !== 'open') {
      confirmed.push(action);
      continue;
    }
    let confirmation: Confirmation;
    try {
      confirmation = await confirm(action.group);
    } catch (error) {
      const why = firstLine(error);
      log.warn(`confirming ${action.group.suite} ${action.group.firstBadNight} failed (${why}): filing it unconfirmed`);
      confirmed.push({ kind: 'open', group: { ...action.group, confirmationError: why } });
      continue;
    }
    const group = { ...action.group, confirmation };
    confirmed.push(confirmation.reproduced ? { kind: 'open', group } : { kind: 'unconfirmed', group });
  }
  return confirmed;
}
