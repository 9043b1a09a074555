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
  const insert = chunkedInsert((rows) => `${head} ${Array<string>(rows).fill(row).join(', ')} ${tail}`, row.split('?').length - 1);
  return (db, params) => insert(db, [], params);
}

/**
 * An insert of many rows that share some of their values (a run's repeats: its id, its times),
 * defined once at module level: `head` is `INSERT INTO t (columns)`, `select` the select list,
 * with a `?` for each shared value and `columnN` for a row's N-th own value (constants may be
 * spelled out), `width` how many values each row has of its own, `tail` what follows (an ON
 * CONFLICT clause). The returned function writes on `db` the rows whose own values `params`
 * holds one row after the other, with the `shared` values, and returns the rows changed. Each
 * statement binds the shared values once instead of once a row: the import's repeats took a
 * tenth less of SQLite's time (bench/README.md).
 */
export function sharedValuesInsert(head: string, select: string, width: number, tail = ''): (db: Db, shared: readonly unknown[], params: readonly unknown[]) => number {
  const row = `(${Array<string>(width).fill('?').join(', ')})`;
  // `WHERE true` tells SQLite's parser that the ON CONFLICT of `tail` is the insert's, not a join's.
  return chunkedInsert((rows) => `${head} SELECT ${select} FROM (VALUES ${Array<string>(rows).fill(row).join(', ')}) WHERE true ${tail}`, width);
}

/**
 * Writes rows of `width` parameters each, at most `maxRowsPerStatement` a statement, the shared
 * parameters before each statement's own; `sqlOf` is the statement of a row count.
 */
function chunkedInsert(sqlOf: (rows: number) => string, width: number): (db: Db, shared: readonly unknown[], params: readonly unknown[]) => number {
  const chunk = maxRowsPerStatement * width;
  // Per database, the statement of each row count, prepared when that count is first written: a
  // repeat's metrics are about the same count every time, so only a few are ever prepared.
  const statementsOf = new WeakMap<Db, Database.Statement[]>();
  return (db, shared, params) => {
    let statements = statementsOf.get(db);
    if (!statements) statementsOf.set(db, (statements = []));
    let changes = 0;
    for (let start = 0; start < params.length; start += chunk) {
      const rowParams = params.length <= chunk ? params : params.slice(start, start + chunk);
      const rows = rowParams.length / width;
      const statement = (statements[rows] ??= db.prepare(sqlOf(rows)));
      changes += statement.run(shared.length === 0 ? rowParams : [...shared, ...rowParams]).changes;
    }
    return changes;
  };
}
