/**
 * Operations on a history database file as a whole, for the commands and the history-sync
 * backends: migrate, status, merge shards, prune, copy. Each opens the file, does its work and
 * closes it, so no caller outside src/history holds a database handle.
 *
 * @module
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { firstLine, NightbenchError, storeError } from '../errors.js';
import { listMigrations, migrate, openDatabase, schemaVersion, type Db, type Migration, type OpenOptions } from './database.js';
import { archiveCopy, compact, pruneSamples, tableRowCounts, type PruneOutcome } from './maintenance-queries.js';
import { mergeDatabase, type MergeCounts } from './merge-queries.js';

/**
 * Refuses, as a store error naming `command`, a history file that does not exist: a command that
 * reads the history would otherwise create an empty one where a mistyped --db points, and report
 * on it as if nothing had happened there.
 */
export function requireHistoryFile(file: string, command: string): void {
  if (!existsSync(file)) throw storeError(`${command}: ${file} does not exist`);
}

function withDatabase<T>(file: string, options: OpenOptions, body: (db: Db) => T): T {
  const db = openDatabase(file, options);
  try {
    return body(db);
  } finally {
    db.close();
  }
}

/** Applies pending migrations; returns them and the version reached. */
export function migrateHistoryFile(file: string): { applied: Migration[]; version: number } {
  return withDatabase(file, { migrate: false }, (db) => {
    const applied = migrate(db);
    return { applied, version: schemaVersion(db) };
  });
}

export interface HistoryFileStatus {
  version: number;
  /** Pending migrations as "NNN-name". */
  pending: string[];
  rows: Record<string, number>;
}

/** Schema version, pending migrations and row counts, changing nothing: read only, so neither created nor switched to WAL. */
export function historyFileStatus(file: string): HistoryFileStatus {
  requireHistoryFile(file, 'db status');
  return withDatabase(file, { readonly: true }, (db) => {
    const version = schemaVersion(db);
    const pending = listMigrations().filter((m) => m.version > version).map((m) => `${m.version}-${m.name}`);
    return { version, pending, rows: tableRowCounts(db) };
  });
}

/**
 * Merges each shard file into `file` in turn; `onMerged` hears of each as it is done. A shard's
 * writer has ended (the shard jobs are over), so its runs still 'running' are merged incomplete.
 * With `onUnreadable`, a shard that cannot be read (corrupt, missing) is reported there and the
 * others are still merged; without it, it fails the merge.
 */
export function mergeShardFiles(
  file: string,
  shards: readonly string[],
  onMerged: (counts: MergeCounts, index: number) => void = () => undefined,
  onUnreadable?: (error: Error, index: number) => void,
): MergeCounts[] {
  return withDatabase(file, {}, (db) =>
    shards.flatMap((shard, index) => {
      try {
        // The history attached to itself would wait on its own write lock, then say "database is locked".
        if (path.resolve(shard) === path.resolve(file)) throw storeError(`${shard} is the history itself, not a shard`);
        const counts = mergeDatabase(db, shard, { writerEnded: true });
        onMerged(counts, index);
        return [counts];
      } catch (error) {
        // A corrupt shard (a job killed while uploading, a bad artifact) must not cost the others their night.
        if (!onUnreadable || !(error instanceof Error)) throw error;
        onUnreadable(error, index);
        return [];
      }
    }),
  );
}

/**
 * Merges the runs of `ourFile` into `storedFile` (created when absent) and leaves the stored
 * file self-contained: journal mode DELETE, so no -wal file has to travel with it.
 */
export function mergeRunsInto(storedFile: string, ourFile: string): MergeCounts {
  return withDatabase(storedFile, {}, (db) => {
    const counts = mergeDatabase(db, ourFile);
    db.pragma('journal_mode = DELETE');
    return counts;
  });
}

/** Deletes the samples of nights before `before` (see pruneSamples), first archiving a full copy if asked, then compacts the file. */
export function pruneHistoryFile(file: string, before: string, options: { dryRun?: boolean; archive?: string } = {}): PruneOutcome {
  return withDatabase(file, {}, (db) => {
    if (options.archive && !options.dryRun) archiveBeforePrune(db, options.archive);
    const outcome = pruneSamples(db, before, { dryRun: options.dryRun });
    if (!options.dryRun && outcome.samples > 0) compact(db);
    return outcome;
  });
}

/** The full copy a prune writes first; one it cannot write (no such folder, a file already there) stops the prune before it deletes anything. */
function archiveBeforePrune(db: Db, archive: string): void {
  try {
    archiveCopy(db, archive);
  } catch (error) {
    throw new NightbenchError('usage', `cannot write the archive ${archive}: ${firstLine(error)}; nothing was pruned`, { cause: error });
  }
}

/** A consistent copy of `from` at `to` (replacing it), even while another process writes `from`. */
export function copyHistoryFile(from: string, to: string): void {
  withDatabase(from, { readonly: true }, (db) => {
    rmSync(to, { force: true });
    archiveCopy(db, to);
  });
}
