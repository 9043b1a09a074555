/**
 * Work whose process died before it finished: A/B tests left 'running' (runs have their own
 * marking in HistoryStore.markAbandonedRuns).
 *
 * @module
 */
import type { Db } from './database.js';

/** A/B tests of `host` still marked running, with the pid of the process that ran them. */
export function runningAbTestsOfHost(db: Db, host: string): { id: string; pid: number | null }[] {
  return db.prepare("SELECT id, pid FROM ab_tests WHERE status = 'running' AND host = ?").all(host) as { id: string; pid: number | null }[];
}

/** What was recorded stays; the test is incomplete, and says so wherever it is shown. */
export function markAbTestIncomplete(db: Db, id: string): void {
  db.prepare("UPDATE ab_tests SET status = 'incomplete' WHERE id = ? AND status = 'running'").run(id);
}
