/**
 * The machine nights detection found (db/migrations/012-machine-nights.sql,
 * src/detect/machine-night.ts): written once per judged night and suite, read by detection,
 * issues, pages and the summary.
 *
 * @module
 */
import type { MachineNight, MachineSign } from './episode-rows.js';
import type { Db } from './database.js';

/** Stores (or replaces: judging a night again gives the same finding) the finding of a night. */
export function recordMachineNight(db: Db, finding: MachineNight): void {
  db.prepare(
    `INSERT OR REPLACE INTO machine_nights (night, suite, machine, signs, direction, canary_change, judged_series, moved_series, moved_workloads, reason)
     VALUES (@night, @suite, @machine, @signs, @direction, @canaryChange, @judgedSeries, @movedSeries, @movedWorkloads, @reason)`,
  ).run({
    night: finding.night, suite: finding.suite, machine: finding.machine ? 1 : 0, signs: finding.signs.join(','), direction: finding.direction ?? null,
    canaryChange: finding.canaryChange ?? null, judgedSeries: finding.judgedSeries, movedSeries: finding.movedSeries, movedWorkloads: finding.movedWorkloads ?? null, reason: finding.reason,
  });
}

/** The stored findings, oldest first; only machine ones with `machineOnly`, only from `sinceNight` on when given. */
export function machineNights(db: Db, filter: { sinceNight?: string; machineOnly?: boolean } = {}): MachineNight[] {
  const rows = db
    .prepare(
      `SELECT night, suite, machine, signs, direction, canary_change AS canaryChange, judged_series AS judgedSeries, moved_series AS movedSeries, moved_workloads AS movedWorkloads, reason
       FROM machine_nights WHERE night >= ? AND machine >= ? ORDER BY night, suite`,
    )
    .all(filter.sinceNight ?? '', filter.machineOnly ? 1 : 0) as { night: string; suite: string; machine: number; signs: string; direction: 'slower' | 'faster' | null; canaryChange: number | null; judgedSeries: number; movedSeries: number; movedWorkloads: number | null; reason: string }[];
  return rows.map(({ machine, signs, direction, canaryChange, movedWorkloads, ...row }) => ({
    ...row, machine: machine === 1, signs: signs ? (signs.split(',') as MachineSign[]) : [],
    ...(direction ? { direction } : {}), ...(canaryChange === null ? {} : { canaryChange }), ...(movedWorkloads === null ? {} : { movedWorkloads }),
  }));
}
