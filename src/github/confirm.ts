/**
 * Confirmation before filing (`github.confirm`): every planned opening is first rerun, last good
 * against first bad as an interleaved A/B, through a port (the nightly's runs it on the cluster,
 * tests and the quality bench on a simulated runner). A reproduced group opens with the
 * confirmation's figures; one that does not becomes an `unconfirmed` action, never filed.
 *
 * @module
 */
import type { RatioInterval } from '../stats/index.js';
import type { IssueGroup } from './group.js';
import type { IssueAction } from './plan.js';

/** What the rerun of one issue group showed. */
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

/** Reruns a group's regression. */
export type ConfirmPort = (group: IssueGroup) => Promise<Confirmation>;

/** The plan with each opening confirmed first: reproduced ones open with their confirmation, the others are unconfirmed. */
export async function confirmOpenings(actions: readonly IssueAction[], confirm: ConfirmPort): Promise<IssueAction[]> {
  const confirmed: IssueAction[] = [];
  for (const action of actions) {
    if (action.kind !== 'open') {
      confirmed.push(action);
      continue;
    }
    const confirmation = await confirm(action.group);
    const group = { ...action.group, confirmation };
    confirmed.push(confirmation.reproduced ? { kind: 'open', group } : { kind: 'unconfirmed', group });
  }
  return confirmed;
}
