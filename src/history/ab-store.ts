/**
 * The A/B tests (ab-queries.ts): created, their runs attached, finished, and read back with the
 * group of each run. `T` is the A/B module's record type: the history stores its config and
 * schedule whole.
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import { markWorkIncomplete } from './abandoned-queries.js';
import { abTestRuns, abTestsMatching, attachRunToAbTest, finishAbTest, insertAbTest, latestAbTests, type NewAbTest, type StoredAbTest } from './ab-queries.js';
import { selectResultRows } from './run-queries.js';
import type { StoreHandle } from './store-handle.js';
import type { ProcessOwner, ResultRow, RunStatus } from './types.js';

export class AbStore {
  constructor(private readonly handle: StoreHandle) {}

  createAbTest<T extends StoredAbTest>(test: NewAbTest<T>, owner: { bootId?: string; startTicks?: number } = {}): void {
    insertAbTest(this.handle.db, test, owner);
  }

  attachRunToAbTest(runId: string, testId: string, group: string): void {
    attachRunToAbTest(this.handle.db, runId, testId, group);
  }

  finishAbTest(id: string, status: RunStatus, finishedAt: string): void {
    finishAbTest(this.handle.db, id, status, finishedAt);
  }

  /** A test by its id or an unambiguous prefix of it (as printed: the first 8 characters do). */
  abTest<T extends StoredAbTest>(idOrPrefix: string): T {
    const found = abTestsMatching(this.handle.db, idOrPrefix);
    const exact = found.find((test) => test.id === idOrPrefix);
    if (!exact && found.length > 1) throw new NightbenchError('usage', `A/B id "${idOrPrefix}" is ambiguous: ${found.map((t) => t.id).join(', ')}`);
    const test = exact ?? found[0];
    if (!test) throw new NightbenchError('usage', `no A/B test "${idOrPrefix}" in ${this.handle.file}; \`nightbench ab list\` shows them`);
    return test as T;
  }

  /** Newest first. */
  abTests<T extends StoredAbTest>(limit = 20): T[] {
    return latestAbTests(this.handle.db, limit) as T[];
  }

  /** Every repeat of the test's runs, each with the group its run belongs to. */
  abTestRows(id: string): (ResultRow & { group: string })[] {
    const runs = abTestRuns(this.handle.db, id);
    if (runs.length === 0) return [];
    const groupOf = new Map(runs.map((r) => [r.id, r.group]));
    return selectResultRows(this.handle.db, { runIds: runs.map((r) => r.id) }).map((row) => ({ ...row, group: groupOf.get(row.runId)! }));
  }

  /** A/B tests left 'running' by a process of this host that no longer exists: marked incomplete. */
  markAbandonedAbTests(isAlive: (owner: ProcessOwner) => boolean): string[] {
    return this.handle.markAbandoned('ab_tests', isAlive, (db, id) => markWorkIncomplete(db, 'ab_tests', id));
  }
}
