/**
 * The states a bisect tests: every commit of every repository between the last good and the
 * first bad night, merged by commit date, each applied on top of the previous state, which is
 * how nightlies cut off at any instant between the two nights would have tested them (every
 * repository at its own last commit before the cut-off). A repository that did not change
 * between the nights adds no state. Pure.
 *
 * @module
 */
import type { RangeCommit } from '../git/range-commits.js';

/** A commit of a suspect range, as git lists it (src/git/range-commits.ts). */
export type RangeCommitRef = RangeCommit;

/** One testable state of the target: every repository's commit, after `change` landed. */
export interface TargetState {
  /** repo -> sha */
  commits: Record<string, string>;
  /** The commit that made this state from the previous one; none for the last good state. */
  change?: RangeCommitRef;
}

/**
 * State 0 is the last good night's commits; state i applies the i-th commit of the merged
 * ranges; the last state is the first bad night's. `ranges` holds each repository's commits
 * oldest first; ties of date keep the repositories' order (the primary first).
 */
export function orderStates(repositories: readonly string[], good: Readonly<Record<string, string>>, ranges: Readonly<Record<string, readonly RangeCommitRef[]>>): TargetState[] {
  // A merge, not a sort: within one repository git's order stands even when dates do not
  // (a rebased branch can carry older dates than its parent).
  const queues = repositories.map((repo) => [...(ranges[repo] ?? [])]);
  const states: TargetState[] = [{ commits: { ...good } }];
  for (;;) {
    let next: number | undefined;
    for (const [i, queue] of queues.entries()) {
      if (queue.length === 0) continue;
      if (next === undefined || Date.parse(queue[0]!.committedAt) < Date.parse(queues[next]![0]!.committedAt)) next = i;
    }
    if (next === undefined) return states;
    const change = queues[next]!.shift()!;
    states.push({ commits: { ...states.at(-1)!.commits, [change.repo]: change.sha }, change });
  }
}
