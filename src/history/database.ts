import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine, storeError } from '../errors.js';
import { isBusy } from './busy-retry.js';

export type Db = Database.Database;

export const migrationsDir = fileURLToPath(new URL('../../db/migrations/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** db/migrations/NNN-name.sql, in order; the number is the schema version it brings. */
export function listMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), name: file.slice(4, -4), sql: readFileSync(path.join(dir, file), 'utf8') }));
}

export interface OpenOptions {
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** Apply pending migrations (the default); `db status` looks without changing anything. */
  migrate?: boolean;
}

/**
 * Opens (creating if needed) a history database in WAL mode and brings its schema up to date.
 * A database from a newer nightbench is refused rather than misread.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (!options.readonly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false, timeout: options.busyTimeoutMs ?? 5000 });
  } catch (error) {
    throw storeError(`cannot open history database ${file}: ${firstLine(error)}`, error);
  }
  try {
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    const version = schemaVersion(db);
    const latest = listMigrations().at(-1)?.version ?? 0;
    if (version > latest) {
      throw storeError(`history database ${file} has schema version ${version}, newer than this nightbench knows (${latest}): upgrade nightbench`);
    }
    if (options.migrate ?? !options.readonly) migrate(db);
  } catch (error) {
    db.close();
    throw describeSqliteError(error, file);
  }
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every migration newer than the database, each in its own transaction. */
export function migrate(db: Db): Migration[] {
  const current = schemaVersion(db);
  const pending = listMigrations().filter((m) => m.version > current);
  // Migrations are this repository's own files: one may widen a CHECK through writable_schema,
  // which SQLite's defensive mode (better-sqlite3's default) refuses outside unsafe mode.
  db.unsafeMode(true);
  try {
    for (const migration of pending) {
      db.transaction(() => {
        db.exec(migration.sql);
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    }
  } finally {
    db.unsafeMode(false);
  }
  return pending;
}

/** Runs `body`; SQLite's errors become store errors naming the database file. */
export function guardSqlite<T>(db: Db, body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw describeSqliteError(error, db.name);
  }
}

/**
 * Whether SQLite refused a write because the database, or its folder, cannot be written: the
 * plain code or an extended one (SQLITE_READONLY_DIRECTORY for a folder this user may not write).
 */
export function isReadonly(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}

/** Turns SQLite's terse codes into the one line a user can act on. */
export function describeSqliteError(error: unknown, file: string): Error {
  if (error instanceof Error && error.name === 'NightbenchError') return error;
  const code = (error as { code?: string }).code ?? '';
  if (isBusy(error)) {
    return storeError(`history database ${file} is locked by another writer; try again when it has finished`, error);
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return storeError(`history database ${file} is corrupt or not a SQLite database (${firstLine(error)}); restore it from a backup or the history branch`, error);
  }
  if (isReadonly(error) || code.startsWith('SQLITE_CANTOPEN')) {
    return storeError(`history database ${file} cannot be written: ${firstLine(error)}`, error);
  }
  return storeError(`history database ${file}: ${firstLine(error)}`, error);
}
