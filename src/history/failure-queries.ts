/**
 * How each nightly run and each of its workloads ended, for the broken-workload issues
 * (src/detect/failures.ts).
 *
 * @module
 */
import type { NightOutcome } from '../detect/failures.js';
import type { Db } from './database.js';

/**
 * Per nightly run: the run as a whole (passed when any workload ran, or was found unsupported by the
 * target's version) and each workload (passed when no repeat failed).
 */
export function selectNightOutcomes(db: Db, sinceNight: string): NightOutcome[] {
  const commits = new Map<string, Record<string, string>>();
  for (const row of db.prepare("SELECT c.run_id AS runId, c.repo, c.sha FROM run_commits c JOIN runs r ON r.id = c.run_id WHERE r.kind = 'nightly' AND r.night >= ?").all(sinceNight) as { runId: string; repo: string; sha: string }[]) {
    commits.set(row.runId, { ...(commits.get(row.runId) ?? {}), [row.repo]: row.sha });
  }
  const runs = db
    .prepare("SELECT r.id AS runId, r.suite, r.night, r.status, r.error, (SELECT COUNT(*) FROM repeats p WHERE p.run_id = r.id) + (SELECT COUNT(*) FROM unsupported_workloads u WHERE u.run_id = r.id) AS repeats FROM runs r WHERE r.kind = 'nightly' AND r.night >= ? AND r.status <> 'running'")
    .all(sinceNight) as { runId: string; suite: string; night: string; status: string; error: string | null; repeats: number }[];
  const workloads = db
    .prepare(
      `SELECT r.id AS runId, r.suite, r.night, p.workload, SUM(p.status IN ('failed', 'timeout')) AS failures,
              (SELECT q.error FROM repeats q WHERE q.run_id = r.id AND q.workload = p.workload AND q.status IN ('failed', 'timeout') ORDER BY q.repeat DESC LIMIT 1) AS error
       FROM runs r JOIN repeats p ON p.run_id = r.id WHERE r.kind = 'nightly' AND r.night >= ? GROUP BY r.id, p.workload`,
    )
    .all(sinceNight) as { runId: string; suite: string; night: string; workload: string; failures: number; error: string | null }[];
  return [
    ...runs.map((r) => ({ suite: r.suite, night: r.night, runId: r.runId, commits: commits.get(r.runId) ?? {}, passed: r.repeats > 0, ...(r.repeats > 0 ? {} : { error: r.error ?? 'the run failed before any workload ran' }) })),
    ...workloads.map((w) => ({ suite: w.suite, workload: w.workload, night: w.night, runId: w.runId, commits: commits.get(w.runId) ?? {}, passed: w.failures === 0, ...(w.error ? { error: w.error } : {}) })),
  ];
}
