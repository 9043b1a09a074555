import { shuffle } from 'simple-statistics';
import { createRandom } from '../stats/index.js';

/** A set of runs of one environment: A (baseline), A' (its independent twin), B, C, ... */
export interface AbGroup {
  label: string;
  environment: string;
  role: 'baseline' | 'null' | 'candidate';
}

/** One cluster's worth of work: `count` repeats of one workload for one group, numbered from `firstRepeat`. */
export interface Slot {
  group: string;
  suite: string;
  workload: string;
  firstRepeat: number;
  count: number;
}

export interface ScheduleOptions {
  repeats: number;
  blockSize: number;
  order: 'blocks' | 'random';
  seed: number;
}

/** Label of the baseline's twin in the null hypothesis. */
export const nullLabel = "A'";

/**
 * The groups of an A/B: the first environment is the baseline A; with the null hypothesis it runs
 * again as A'; every other environment is a candidate B, C, ...
 */
export function abGroups(environments: readonly string[], nullHypothesis: boolean): AbGroup[] {
  const [baseline, ...candidates] = environments;
  if (baseline === undefined) return [];
  const groups: AbGroup[] = [{ label: 'A', environment: baseline, role: 'baseline' }];
  if (nullHypothesis) groups.push({ label: nullLabel, environment: baseline, role: 'null' });
  candidates.forEach((environment, i) => groups.push({ label: String.fromCharCode('B'.charCodeAt(0) + i), environment, role: 'candidate' }));
  return groups;
}

/**
 * The order in which slots run. Rounds go outermost: every round gives each workload one slot per
 * group, so whatever the machine does over time is spread evenly over the groups. Within a round,
 * `blocks` alternates the group order forward and backward (A B | B A | A B ...), which cancels a
 * linear drift; `random` shuffles each round with the seed. Pure: the same input, the same order.
 */
export function buildSchedule(groups: readonly AbGroup[], workloads: readonly { suite: string; workload: string }[], options: ScheduleOptions): Slot[] {
  const random = createRandom(options.seed);
  const rounds = Math.ceil(options.repeats / options.blockSize);
  const slots: Slot[] = [];
  for (let round = 0; round < rounds; round++) {
    const firstRepeat = round * options.blockSize + 1;
    const count = Math.min(options.blockSize, options.repeats - round * options.blockSize);
    for (const { suite, workload } of workloads) {
      const labels = groups.map((g) => g.label);
      const ordered = options.order === 'random' ? shuffle(labels, random) : round % 2 === 0 ? labels : labels.reverse();
      for (const group of ordered) slots.push({ group, suite, workload, firstRepeat, count });
    }
  }
  return slots;
}
