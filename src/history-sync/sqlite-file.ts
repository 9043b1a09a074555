import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MergeCounts } from '../history/merge-queries.js';

/** Rows a merge added, over every table. */
export function addedRows(counts: MergeCounts): number {
  return Object.values(counts.added).reduce((sum, n) => sum + n, 0);
}

export function fileBytes(file: string): number {
  return statSync(file).size;
}

/** Makes room for a fetched history at `file`: its folder exists, and no -wal or -shm of an older file is left to be replayed over it. */
export function prepareDestination(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  for (const stale of [`${file}-wal`, `${file}-shm`]) rmSync(stale, { force: true });
}
