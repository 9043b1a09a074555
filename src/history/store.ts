/**
 * Where the SQL lives: only in src/history. Convention, for every new read or write:
 * - one module per concern, `src/history/<concern>-queries.ts` (run-queries.ts, ab-queries.ts,
 *   report-queries.ts, ...), exporting functions that take `db: Db` first and return typed rows;
 * - one small store per concern (run-store.ts, episode-store.ts, ab-store.ts, ...) exposes them
 *   as typed methods, each write one transaction; `files.ts` does the same for whole-file
 *   operations (migrate, merge, prune, copy) on a path;
 * - code outside src/history takes the one store it needs (`RunStore`, `EpisodeStore`, ...), and
 *   nothing there imports better-sqlite3, `Db` or `database.ts`.
 *
 * @module
 */
import { AbStore } from './ab-store.js';
import { BisectStore } from './bisect-store.js';
import type { BusyRetryPolicy, BusyWaitListener } from './busy-retry.js';
import type { Db } from './database.js';
import { EpisodeStore } from './episode-store.js';
import { NightStore } from './night-store.js';
import { ProcessStore } from './process-store.js';
import { RunStore } from './run-store.js';
import { StoreHandle } from './store-handle.js';
import { TriageStore } from './triage-store.js';

/**
 * One history database and its stores, one per concern. Each write is one transaction, so a crash
 * leaves what was recorded before it intact; a run still marked running after its process died is
 * incomplete.
 */
export class HistoryStore {
  readonly runs: RunStore;
  readonly episodes: EpisodeStore;
  readonly ab: AbStore;
  readonly bisects: BisectStore;
  readonly triage: TriageStore;
  readonly processes: ProcessStore;
  readonly nights: NightStore;
  private readonly handle: StoreHandle;

  constructor(db: Db, readonly file: string, busyRetry?: BusyRetryPolicy, onBusyWait?: BusyWaitListener) {
    this.handle = new StoreHandle(db, file, busyRetry, onBusyWait);
    this.runs = new RunStore(this.handle);
    this.episodes = new EpisodeStore(this.handle);
    this.ab = new AbStore(this.handle);
    this.bisects = new BisectStore(this.handle);
    this.triage = new TriageStore(this.handle);
    this.processes = new ProcessStore(this.handle);
    this.nights = new NightStore(this.handle);
  }

  close(): void {
    this.handle.db.close();
  }
}
