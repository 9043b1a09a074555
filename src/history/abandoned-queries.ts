/**
 * Work whose process died before it finished: runs, A/B tests and bisects left 'running'. Each
 * table records the host, pid, boot and start time of the process that runs it.
 *
 * @module
 */
import type { Db } from './database.js';
import type { ProcessOwner } from './types.js';

/** The tables of work that records its host and pid while it runs. */
export type TrackedWork = 'ab_tests' | 'bisects';

/** Work of `host` still marked running, with the process that ran it. */
export function runningWorkOfHost(db: Db, table: TrackedWork | 'runs', host: string): ({ id: string } & ProcessOwner)[] {
  return db.prepare(`SELECT id, pid, boot_id AS bootId, start_ticks AS startTicks FROM ${table} WHERE status = 'running' AND host = ?`).all(host) as ({ id: string } & ProcessOwner)[];
}

/** What was recorded stays; the work is incomplete, and says so wherever it is shown. */
export function markWorkIncomplete(db: Db, table: TrackedWork, id: string): void {
  db.prepare(`UPDATE ${table} SET status = 'incomplete' WHERE id = ? AND status = 'running'`).run(id);
}

/** A run's own marking: it also says why, on every page and summary that shows it. */
export function markRunIncomplete(db: Db, id: string): void {
  db.prepare("UPDATE runs SET status = 'incomplete', error = 'the run stopped before it finished' WHERE id = ?").run(id);
}
