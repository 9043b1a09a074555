/**
 * Failures are issues too: a workload whose code fails (an error or a time-out) on a night is
 * broken from the first night of that failing streak, whether it passed before or failed from
 * its very first night; it stays broken while it keeps failing and is fixed on the first night
 * it passes again. Only the code's failures count: a failure of the machine (the cluster did not
 * start, the runner was interrupted) is no outcome at all (see failure-queries.ts). Each has a
 * stable fingerprint (what broke and its first failing night), so an issue is found again across
 * nights, however many nights were skipped or however long it failed. Pure.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { NightOutcome } from '../history/night-rows.js';

export type { NightOutcome };

export interface BrokenWorkload {
  fingerprint: string;
  suite: string;
  workload: string;
  /** The last night it passed before the failures: the suspect range starts after its commits. Undefined when it failed from its first night. */
  lastPassing?: NightOutcome;
  firstFailing: NightOutcome;
  /** The night judged: still failing, or passing again (`state` fixed). */
  latest: NightOutcome;
  state: 'failing' | 'fixed';
}

/**
 * The broken workloads as of `night`: those failing on it, and those passing on it whose latest
 * failing streak ended on or after `fixedSince` (so that their issues close even when the night
 * that first passed again was not reported). `outcomes` may come in any order.
 */
export function findBroken(outcomes: readonly NightOutcome[], night: string, fixedSince = ''): BrokenWorkload[] {
  const bySubject = new Map<string, NightOutcome[]>();
  for (const outcome of outcomes) {
    if (outcome.night > night) continue;
    const key = `${outcome.suite}\u0000${outcome.workload}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), outcome]);
  }
  const broken: BrokenWorkload[] = [];
  for (const series of bySubject.values()) {
    // On a night with several outcomes (shards), a failure counts: it sorts last.
    const nights = [...series].sort((a, b) => a.night.localeCompare(b.night) || Number(b.passed) - Number(a.passed));
    const latest = nights.at(-1)!;
    if (latest.night !== night) continue;
    const lastFailure = nights.findLastIndex((o) => !o.passed);
    if (lastFailure === -1 || (latest.passed && nights[lastFailure]!.night < fixedSince)) continue;
    const streak = trailingFailures(nights.slice(0, lastFailure + 1));
    const firstFailing = streak[0]!;
    const lastPassing = nights[lastFailure - streak.length];
    broken.push({ fingerprint: brokenFingerprint(firstFailing), suite: latest.suite, workload: latest.workload, ...(lastPassing ? { lastPassing } : {}), firstFailing, latest, state: latest.passed ? 'fixed' : 'failing' });
  }
  return broken.sort((a, b) => a.suite.localeCompare(b.suite) || a.workload.localeCompare(b.workload));
}

/**
 * The broken workload whose issue carries `fingerprint`, with its last passing and first
 * failing nights: judged as of its first failing night, which the fingerprint names.
 */
export function findBrokenByFingerprint(outcomes: readonly NightOutcome[], fingerprint: string): BrokenWorkload | undefined {
  const first = outcomes.find((o) => !o.passed && brokenFingerprint(o) === fingerprint);
  return first && findBroken(outcomes, first.night).find((b) => b.fingerprint === fingerprint);
}

/** The failing nights at the end of `nights`, oldest first. */
function trailingFailures(nights: readonly NightOutcome[]): NightOutcome[] {
  const run: NightOutcome[] = [];
  for (let i = nights.length - 1; i >= 0 && !nights[i]!.passed; i--) run.unshift(nights[i]!);
  return run;
}

/** Stable across nights: what broke and the night it first failed. */
export function brokenFingerprint(first: Pick<NightOutcome, 'suite' | 'workload' | 'night'>): string {
  return createHash('sha256').update(JSON.stringify(['broken', first.suite, first.workload, first.night])).digest('hex').slice(0, 16);
}
