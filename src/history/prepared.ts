/**
 * Statements prepared once per database: the runner writes thousands of rows a night through a
 * few statements, and preparing each again would cost more than the write. Rows written
 * together go through multi-row statements: each call of a statement from JavaScript (binding,
 * a step, a statement savepoint, a reset) cost more than the row it wrote.
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

/** The most rows one statement writes: far below SQLite's limit of 32,766 parameters, and past it nothing is gained. */
const maxRowsPerStatement = 50;

/**
 * An insert of many rows at once, defined once at module level: `head` is `INSERT INTO t
 * (columns) VALUES`, `row` one row's values with a `?` for each parameter (constants may be
 * spelled out), `tail` what follows (an ON CONFLICT clause). The returned function writes on
 * `db` the rows whose parameters `params` holds one row after the other, and returns the rows
 * changed (inserted or updated).
 */
export function rowsInsert(head: string, row: string, tail = ''): (db: Db, params: readonly unknown[]) => number {
  const width = row.split('?').length - 1;
  const chunk = maxRowsPerStatement * width;
  // Per database, the statement of each row count, prepared when that count is first written: a
  // repeat's metrics are about the same count every time, so only a few are ever prepared.
  const statementsOf = new WeakMap<Db, Database.Statement[]>();
  return (db, params) => {
    let statements = statementsOf.get(db);
    if (!statements) statementsOf.set(db, (statements = []));
    let changes = 0;
    for (let start = 0; start < params.length; start += chunk) {
      const rowParams = params.length <= chunk ? params : params.slice(start, start + chunk);
      const rows = rowParams.length / width;
      const statement = (statements[rows] ??= db.prepare(`${head} ${Array<string>(rows).fill(row).join(', ')} ${tail}`));
      changes += statement.run(rowParams).changes;
    }
    return changes;
  };
}
