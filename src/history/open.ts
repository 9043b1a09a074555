import type { BusyRetryPolicy, BusyWaitListener } from './busy-retry.js';
import { openDatabase, type OpenOptions } from './database.js';
import { HistoryStore } from './store.js';

/**
 * The history store at a path, migrated and ready; `busyRetry` bounds how long a write waits out
 * another writer, and `onBusyWait` hears of each wait.
 */
export function openHistory(file: string, options: OpenOptions & { busyRetry?: BusyRetryPolicy; onBusyWait?: BusyWaitListener } = {}): HistoryStore {
  return new HistoryStore(openDatabase(file, options), file, options.busyRetry, options.onBusyWait);
}
