import { hostname } from 'node:os';
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import type { ResultRow, RunStatus } from '../history/types.js';
import type { MetricDirection } from '../suite/schema.js';
import type { AbSection } from './config.js';
import type { AbEnvironment } from './environment-file.js';
import type { AbGroup, Slot } from './schedule.js';

/** What an A/B records about itself, so that `ab report` can analyse it again without rerunning. */
export interface AbTestConfig {
  ab: AbSection;
  environments: AbEnvironment[];
  groups: AbGroup[];
  /** Keyed by testKey(suite, workload, metric). */
  directions: Record<string, MetricDirection>;
  clusterShapes: string[];
}

export interface AbTestRecord {
  id: string;
  createdAt: string;
  finishedAt?: string;
  status: RunStatus;
  config: AbTestConfig;
  order: AbSection['order'];
  seed: number;
  schedule: Slot[];
}

/** The A/B side of the history: the ab_tests table and the runs that point to it (db/migrations/003-ab.sql). */
export class AbStore {
  constructor(readonly history: HistoryStore) {}

  create(test: Omit<AbTestRecord, 'finishedAt' | 'status'>): void {
    this.history.db
      .prepare(
        `INSERT INTO ab_tests (id, created_at, status, config, order_kind, seed, schedule, host, pid)
         VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?)`,
      )
      .run(test.id, test.createdAt, JSON.stringify(test.config), test.order, test.seed, JSON.stringify(test.schedule), hostname(), process.pid);
  }

  /** Ties a run (kind 'ab') to its test and group. */
  attachRun(runId: string, testId: string, group: string): void {
    this.history.db.prepare('UPDATE runs SET ab_test_id = ?, ab_group = ? WHERE id = ?').run(testId, group, runId);
  }

  finish(id: string, status: RunStatus, finishedAt: string): void {
    this.history.db.prepare('UPDATE ab_tests SET status = ?, finished_at = ? WHERE id = ?').run(status, finishedAt, id);
  }

  /** A test by its id or an unambiguous prefix of it (as printed: the first 8 characters do). */
  get(idOrPrefix: string): AbTestRecord {
    const found = this.history.db
      .prepare("SELECT * FROM ab_tests WHERE id = ? OR id LIKE ? || '%' ORDER BY created_at DESC")
      .all(idOrPrefix, idOrPrefix.replace(/[%_]/g, '')) as AbTestRow[];
    const exact = found.find((row) => row.id === idOrPrefix);
    if (!exact && found.length > 1) throw new NightbenchError('usage', `A/B id "${idOrPrefix}" is ambiguous: ${found.map((r) => r.id).join(', ')}`);
    const row = exact ?? found[0];
    if (!row) throw new NightbenchError('usage', `no A/B test "${idOrPrefix}" in ${this.history.file}; \`nightbench ab list\` shows them`);
    return fromRow(row);
  }

  /** Newest first. */
  list(limit = 20): AbTestRecord[] {
    return (this.history.db.prepare('SELECT * FROM ab_tests ORDER BY created_at DESC LIMIT ?').all(limit) as AbTestRow[]).map(fromRow);
  }

  /** Every repeat of the test's runs, each with the group its run belongs to. */
  rows(id: string): (ResultRow & { group: string })[] {
    const runs = this.history.db.prepare('SELECT id, ab_group AS "group" FROM runs WHERE ab_test_id = ?').all(id) as { id: string; group: string }[];
    if (runs.length === 0) return [];
    const groupOf = new Map(runs.map((r) => [r.id, r.group]));
    return this.history.resultRows({ runIds: runs.map((r) => r.id) }).map((row) => ({ ...row, group: groupOf.get(row.runId)! }));
  }
}

interface AbTestRow {
  id: string;
  created_at: string;
  finished_at: string | null;
  status: RunStatus;
  config: string;
  order_kind: AbSection['order'];
  seed: number;
  schedule: string;
}

function fromRow(row: AbTestRow): AbTestRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    finishedAt: row.finished_at ?? undefined,
    status: row.status,
    config: JSON.parse(row.config) as AbTestConfig,
    order: row.order_kind,
    seed: row.seed,
    schedule: JSON.parse(row.schedule) as Slot[],
  };
}
