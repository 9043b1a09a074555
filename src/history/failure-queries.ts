/**
 * How each workload of each nightly run ended, for the broken-workload issues
 * (src/detect/failures.ts).
 *
 * @module
 */
import type { NightOutcome } from './night-rows.js';
import type { Db } from './database.js';

/**
 * Per nightly run and workload: failed when a repeat failed for the code's sake, passed when it
 * has a measured repeat and no such failure. A workload whose repeats all failed for the
 * machine's sake (and a run that recorded no repeat at all: its hosts were not leased, its
 * runner was killed) says nothing about the code and is no outcome.
 */
export function selectNightOutcomes(db: Db, sinceNight: string): NightOutcome[] {
  const commits = new Map<string, Record<string, string>>();
  for (const row of db.prepare("SELECT c.run_id AS runId, c.repo, c.sha FROM run_commits c JOIN runs r ON r.id = c.run_id WHERE r.kind = 'nightly' AND r.night >= ?").all(sinceNight) as { runId: string; repo: string; sha: string }[]) {
    commits.set(row.runId, { ...(commits.get(row.runId) ?? {}), [row.repo]: row.sha });
  }
  const workloads = db
    .prepare(
      `SELECT r.id AS runId, r.suite, r.night, p.workload, COALESCE(SUM(p.failure_class = 'code'), 0) AS failures, SUM(p.status IN ('ok', 'disturbed')) AS measured,
              (SELECT q.error FROM repeats q WHERE q.run_id = r.id AND q.workload = p.workload AND q.failure_class = 'code' ORDER BY q.repeat DESC LIMIT 1) AS error
       FROM runs r JOIN repeats p ON p.run_id = r.id WHERE r.kind = 'nightly' AND r.night >= ? GROUP BY r.id, p.workload`,
    )
    .all(sinceNight) as { runId: string; suite: string; night: string; workload: string; failures: number; measured: number; error: string | null }[];
  return workloads
    .filter((w) => w.failures > 0 || w.measured > 0)
    .map((w) => ({ suite: w.suite, workload: w.workload, night: w.night, runId: w.runId, commits: commits.get(w.runId) ?? {}, passed: w.failures === 0, ...(w.error ? { error: w.error } : {}) }));
}
