/**
 * Failures are issues too: a workload that fails (an error or a time-out) on a night after it
 * passed on an earlier one is broken from that night; it stays broken while it keeps failing and
 * is fixed on the first night it passes again. A night whose run failed before any workload ran
 * (the target did not install) is one broken night, not one per workload. Each has a stable
 * fingerprint (what broke and its first failing night), so an issue is found again across
 * nights. Pure.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** How one workload (or, with `workload` undefined, a whole run) did on one night. */
export interface NightOutcome {
  suite: string;
  /** Undefined: the run failed before any workload ran. */
  workload?: string;
  night: string;
  runId: string;
  /** repo -> sha */
  commits: Record<string, string>;
  passed: boolean;
  /** The tail of the error of a failed night. */
  error?: string;
}

export interface BrokenWorkload {
  fingerprint: string;
  suite: string;
  /** Undefined: the whole night failed before any workload ran. */
  workload?: string;
  /** The last night it passed: the suspect range starts after its commits. */
  lastPassing: NightOutcome;
  firstFailing: NightOutcome;
  /** The night judged: still failing, or passing again (`state` fixed). */
  latest: NightOutcome;
  state: 'failing' | 'fixed';
}

/**
 * The broken workloads and nights as of `night`: those failing on it after an earlier pass, and
 * those that failed on the night before it and pass on it (to close their issues). `outcomes`
 * may come in any order.
 */
export function findBroken(outcomes: readonly NightOutcome[], night: string): BrokenWorkload[] {
  const bySubject = new Map<string, NightOutcome[]>();
  for (const outcome of outcomes) {
    if (outcome.night > night) continue;
    const key = `${outcome.suite}\u0000${outcome.workload ?? ''}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), outcome]);
  }
  // A night split into shards has one run per shard: the night failed as a whole only when none of them ran a workload.
  const runs = outcomes.filter((o) => o.workload === undefined);
  const someRunRan = new Set(runs.filter((o) => o.passed).map((o) => `${o.suite}\u0000${o.night}`));
  const wholeNightFailed = new Set(runs.filter((o) => !o.passed).map((o) => `${o.suite}\u0000${o.night}`).filter((key) => !someRunRan.has(key)));
  const broken: BrokenWorkload[] = [];
  for (const series of bySubject.values()) {
    const nights = [...series].sort((a, b) => a.night.localeCompare(b.night) || Number(a.passed) - Number(b.passed));
    const latest = nights.at(-1)!;
    if (latest.night !== night) continue;
    // A workload on a night whose whole run failed is part of the night's one issue.
    if (latest.workload !== undefined && wholeNightFailed.has(`${latest.suite}\u0000${night}`)) continue;
    const failingRun = trailingFailures(latest.passed ? nights.slice(0, -1) : nights);
    if (failingRun.length === 0) continue;
    const lastPassing = nights[nights.length - (latest.passed ? 1 : 0) - failingRun.length - 1];
    if (!lastPassing?.passed) continue;
    const firstFailing = failingRun[0]!;
    broken.push({ fingerprint: brokenFingerprint(firstFailing), suite: latest.suite, workload: latest.workload, lastPassing, firstFailing, latest, state: latest.passed ? 'fixed' : 'failing' });
  }
  return broken.sort((a, b) => a.suite.localeCompare(b.suite) || (a.workload ?? '').localeCompare(b.workload ?? ''));
}

/**
 * The broken workload (or night) whose issue carries `fingerprint`, with its last passing and
 * first failing nights: judged as of its first failing night, which the fingerprint names.
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
  return createHash('sha256').update(JSON.stringify(['broken', first.suite, first.workload ?? null, first.night])).digest('hex').slice(0, 16);
}
