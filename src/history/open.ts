import { openDatabase, type OpenOptions } from './database.js';
import { HistoryStore } from './store.js';

/** The history store at a path, migrated and ready. */
export function openHistory(file: string, options: OpenOptions = {}): HistoryStore {
  return new HistoryStore(openDatabase(file, options), file);
}
