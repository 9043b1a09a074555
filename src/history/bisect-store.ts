/**
 * The bisects (bisect-queries.ts): begun, their runs linked, finished, and read back.
 *
 * @module
 */
import { markWorkIncomplete } from './abandoned-queries.js';
import { finishBisect, insertBisect, linkRunToBisect, selectBisects, type BisectOutcomeRecord, type BisectRecord, type NewBisect } from './bisect-queries.js';
import { guardSqlite } from './database.js';
import type { StoreHandle } from './store-handle.js';
import type { ProcessOwner } from './types.js';

export class BisectStore {
  constructor(private readonly handle: StoreHandle) {}

  beginBisect(bisect: NewBisect): void {
    this.handle.write(() => insertBisect(this.handle.db, bisect));
  }

  /** Marks a run (of kind 'bisect') as one of this bisect's. */
  linkRunToBisect(runId: string, bisectId: string): void {
    this.handle.write(() => linkRunToBisect(this.handle.db, runId, bisectId));
  }

  finishBisect(id: string, outcome: BisectOutcomeRecord): void {
    this.handle.write(() => finishBisect(this.handle.db, id, outcome));
  }

  bisects(filter: { suite?: string; workload?: string } = {}): BisectRecord[] {
    return guardSqlite(this.handle.db, () => selectBisects(this.handle.db, filter));
  }

  /** Bisects left 'running' by a process of this host that no longer exists: marked incomplete. */
  markAbandonedBisects(isAlive: (owner: ProcessOwner) => boolean): string[] {
    return this.handle.markAbandoned('bisects', isAlive, (db, id) => markWorkIncomplete(db, 'bisects', id));
  }
}
