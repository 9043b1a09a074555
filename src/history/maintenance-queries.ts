/**
 * Keeping the history file small and whole: pruning old samples, copies, compaction, row counts.
 *
 * @module
 */
import type { Db } from './database.js';

export interface PruneOutcome {
  before: string;
  /** Runs (of nights before `before`) whose samples were, or with dry-run would be, deleted. */
  runs: number;
  samples: number;
  dryRun: boolean;
}

/**
 * Deletes the per-process time series (samples: the bulk of the history, and the drill-down
 * timelines cut from them) of every run of a night before `before`. Results, repeats and runs
 * stay: the series detection and the pages read are untouched; only the memory and CPU curves of
 * old repeats go.
 */
export function pruneSamples(db: Db, before: string, options: { dryRun?: boolean } = {}): PruneOutcome {
  const old = "run_id IN (SELECT id FROM runs WHERE night < ?)";
  const counted = db.prepare(`SELECT count(*) AS samples, count(DISTINCT run_id) AS runs FROM samples WHERE ${old}`).get(before) as { samples: number; runs: number };
  if (!options.dryRun && counted.samples > 0) {
    db.transaction(() => {
      db.prepare(`DELETE FROM samples WHERE ${old}`).run(before);
      db.prepare(`DELETE FROM repeat_timelines WHERE ${old}`).run(before);
    }).immediate();
  }
  return { before, runs: counted.runs, samples: counted.samples, dryRun: options.dryRun ?? false };
}

/** A full, consistent copy of the history at `file` (VACUUM INTO), to keep before pruning. */
export function archiveCopy(db: Db, file: string): void {
  db.prepare('VACUUM INTO ?').run(file);
}

/** Gives the pages freed by a prune back to the file system, so the stored file shrinks. */
export function compact(db: Db): void {
  db.exec('VACUUM');
  // In WAL mode the rebuilt pages land in the -wal file; the checkpoint moves them into the
  // database and truncates it to its new size.
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** Rows of every table and view, by name: the `results` view counts the values, kept in their repeats' rows since migration 026. */
export function tableRowCounts(db: Db): Record<string, number> {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
  return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]));
}
