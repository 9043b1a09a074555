/**
 * Statements prepared once per database: the runner writes thousands of rows a night through a
 * few statements, and preparing each again would cost more than the write.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { Db } from './database.js';

const statementsOf = new WeakMap<Db, Map<string, Database.Statement>>();

/** `sql` prepared on `db`, the first time it is asked for. */
export function preparedOnce(db: Db, sql: string): Database.Statement {
  let statements = statementsOf.get(db);
  if (!statements) statementsOf.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}
