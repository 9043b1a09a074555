/**
 * What the stores of one history share (store.ts): its database, its file, and the write
 * transaction that waits out another writer. Each write is one transaction, so a crash leaves
 * what was recorded before it intact.
 *
 * @module
 */
import { hostname } from 'node:os';
import { runningWorkOfHost, type TrackedWork } from './abandoned-queries.js';
import { defaultBusyRetry, retryWhileBusy, type BusyRetryPolicy, type BusyWaitListener } from './busy-retry.js';
import { describeSqliteError, type Db } from './database.js';
import type { ProcessOwner } from './types.js';

export class StoreHandle {
  /**
   * `body` in an IMMEDIATE transaction. Made once: better-sqlite3 builds four wrappers and
   * defines their properties on each `db.transaction`, about 3% of the CPU of the runner's
   * one-transaction-per-repeat writes (bench/history.ts, profiled).
   */
  private readonly immediate: <T>(body: () => T) => T;

  constructor(
    readonly db: Db,
    readonly file: string,
    private readonly busyRetry: BusyRetryPolicy = defaultBusyRetry,
    private readonly onBusyWait?: BusyWaitListener,
  ) {
    this.immediate = db.transaction((body: () => unknown) => body()).immediate as <T>(body: () => T) => T;
  }

  /** One transaction; another writer's lock is waited out (busy-retry.ts), so a repeat is never lost to it. */
  write<T>(body: () => T): T {
    try {
      return retryWhileBusy(() => this.immediate(body), this.busyRetry, this.onBusyWait);
    } catch (error) {
      throw describeSqliteError(error, this.file);
    }
  }

  /**
   * Work of `table` left 'running' by a process of this host that no longer exists crashed midway:
   * what it recorded stays, and `markIncomplete` marks each so nobody mistakes it for finished
   * work. `isAlive` judges the recorded process (pid, boot, start time), never a pid alone.
   */
  markAbandoned(table: TrackedWork | 'runs', isAlive: (owner: ProcessOwner) => boolean, markIncomplete: (db: Db, id: string) => void): string[] {
    const abandoned = runningWorkOfHost(this.db, table, hostname()).filter((work) => !isAlive(work)).map((work) => work.id);
    if (abandoned.length > 0) this.write(() => abandoned.forEach((id) => markIncomplete(this.db, id)));
    return abandoned;
  }
}
