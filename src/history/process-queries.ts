/**
 * The processes runs started (db/migrations/006-run-processes.sql): recorded as they start,
 * settled when their runner stops them or a later start finds the runner dead.
 *
 * @module
 */
import type { Db } from './database.js';
import type { ProcessFate, RunProcess } from './types.js';

export function insertRunProcess(db: Db, process: RunProcess): void {
  db.prepare(
    `INSERT OR IGNORE INTO run_processes (run_id, name, host, pid, pgid, boot_id, start_ticks, started_at)
     VALUES (@runId, @name, @host, @pid, @pgid, @bootId, @startTicks, @startedAt)`,
  ).run(process);
}

/** Every process of the run that is not settled yet gets `fate` (its runner stopped them all). */
export function settleRunProcesses(db: Db, runId: string, fate: ProcessFate): void {
  db.prepare('UPDATE run_processes SET fate = ? WHERE run_id = ? AND fate IS NULL').run(fate, runId);
}

export function settleProcess(db: Db, process: Pick<RunProcess, 'host' | 'bootId' | 'pid' | 'startTicks'>, fate: ProcessFate): void {
  db.prepare('UPDATE run_processes SET fate = ? WHERE host = ? AND boot_id = ? AND pid = ? AND start_ticks = ?').run(fate, process.host, process.bootId, process.pid, process.startTicks);
}

/**
 * Processes of `host` not yet settled whose run is no longer running: their runner ended without
 * stopping them (a run still 'running' belongs to a live runner, or to one not yet marked dead).
 */
export function unsettledProcessesOfEndedRuns(db: Db, host: string): RunProcess[] {
  return db
    .prepare(
      `SELECT p.run_id AS runId, p.name, p.host, p.pid, p.pgid, p.boot_id AS bootId, p.start_ticks AS startTicks, p.started_at AS startedAt
       FROM run_processes p JOIN runs r ON r.id = p.run_id
       WHERE p.host = ? AND p.fate IS NULL AND r.status <> 'running'
       ORDER BY p.started_at`,
    )
    .all(host) as RunProcess[];
}
