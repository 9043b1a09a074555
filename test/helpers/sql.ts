import { openDatabase } from '../../src/history/database.js';

/**
 * Raw SQL on a history file, for tests that check what was written: src/ keeps its database
 * handle private to src/history, so a test reads through a connection of its own.
 */
export function sqlAll(file: string, sql: string, ...params: unknown[]): unknown[] {
  const db = openDatabase(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

export function sqlGet(file: string, sql: string, ...params: unknown[]): unknown {
  return sqlAll(file, sql, ...params)[0];
}
