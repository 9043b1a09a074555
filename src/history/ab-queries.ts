/**
 * The A/B side of the history: the ab_tests table and the runs that point to it
 * (db/migrations/003-ab.sql). The test's config and schedule are the A/B module's own JSON,
 * stored whole; the history neither reads nor checks them.
 *
 * @module
 */
import { hostname } from 'node:os';
import type { Db } from './database.js';
import type { RunStatus } from './types.js';

/** An A/B test as stored; `Config`, `Schedule` and `Order` are the A/B module's types. */
export interface StoredAbTest<Config = unknown, Schedule = unknown, Order extends string = string> {
  id: string;
  createdAt: string;
  finishedAt?: string;
  status: RunStatus;
  config: Config;
  order: Order;
  seed: number;
  schedule: Schedule;
}

export type NewAbTest<T extends StoredAbTest> = Omit<T, 'finishedAt' | 'status'>;

interface AbTestRow {
  id: string;
  created_at: string;
  finished_at: string | null;
  status: RunStatus;
  config: string;
  order_kind: string;
  seed: number;
  schedule: string;
}

/** `owner`: this process's boot and start time, when the system tells them (Linux), so its liveness is judged as a run's is. */
export function insertAbTest(db: Db, test: NewAbTest<StoredAbTest>, owner: { bootId?: string; startTicks?: number } = {}): void {
  db.prepare(
    `INSERT INTO ab_tests (id, created_at, status, config, order_kind, seed, schedule, host, pid, boot_id, start_ticks)
     VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(test.id, test.createdAt, JSON.stringify(test.config), test.order, test.seed, JSON.stringify(test.schedule), hostname(), process.pid, owner.bootId ?? null, owner.startTicks ?? null);
}

/** Ties a run (kind 'ab') to its test and group. */
export function attachRunToAbTest(db: Db, runId: string, testId: string, group: string): void {
  db.prepare('UPDATE runs SET ab_test_id = ?, ab_group = ? WHERE id = ?').run(testId, group, runId);
}

export function finishAbTest(db: Db, id: string, status: RunStatus, finishedAt: string): void {
  db.prepare('UPDATE ab_tests SET status = ?, finished_at = ? WHERE id = ?').run(status, finishedAt, id);
}

/** Tests whose id is `idOrPrefix` or starts with it, newest first. */
export function abTestsMatching(db: Db, idOrPrefix: string): StoredAbTest[] {
  const rows = db.prepare("SELECT * FROM ab_tests WHERE id = ? OR id LIKE ? || '%' ORDER BY created_at DESC").all(idOrPrefix, idOrPrefix.replace(/[%_]/g, '')) as AbTestRow[];
  return rows.map(fromRow);
}

/** Newest first. */
export function latestAbTests(db: Db, limit: number): StoredAbTest[] {
  return (db.prepare('SELECT * FROM ab_tests ORDER BY created_at DESC LIMIT ?').all(limit) as AbTestRow[]).map(fromRow);
}

/** The runs of a test, each with its group label. */
export function abTestRuns(db: Db, id: string): { id: string; group: string }[] {
  return db.prepare('SELECT id, ab_group AS "group" FROM runs WHERE ab_test_id = ?').all(id) as { id: string; group: string }[];
}

function fromRow(row: AbTestRow): StoredAbTest {
  return {
    id: row.id,
    createdAt: row.created_at,
    finishedAt: row.finished_at ?? undefined,
    status: row.status,
    config: JSON.parse(row.config) as unknown,
    order: row.order_kind,
    seed: row.seed,
    schedule: JSON.parse(row.schedule) as unknown,
  };
}
