import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { backendFactory, type FetchOutcome, type HistoryBackend, type SaveOutcome } from './backend.js';
import { copyHistoryFile, mergeRunsInto } from '../history/files.js';
import { addedRows, fileBytes, prepareDestination } from './sqlite-file.js';

export const fileOptionsSchema = z.strictObject({
  /** A path on a disk every run sees: a self-hosted runner's volume, a network share. */
  path: z.string().min(1),
});
export type FileOptions = z.output<typeof fileOptionsSchema>;

/**
 * The history as a SQLite file at a fixed path. SQLite's own locking serialises concurrent
 * saves, so a save merges straight into the stored file and never needs to retry.
 */
export class FileBackend implements HistoryBackend {
  readonly description: string;

  constructor(private readonly options: FileOptions) {
    this.description = `file ${options.path}`;
  }

  async fetch(file: string): Promise<FetchOutcome> {
    if (!existsSync(this.options.path)) return { found: false };
    prepareDestination(file);
    copyHistoryFile(this.options.path, file);
    return { found: true, bytes: fileBytes(file) };
  }

  async save(file: string): Promise<SaveOutcome> {
    mkdirSync(path.dirname(path.resolve(this.options.path)), { recursive: true });
    const merged = mergeRunsInto(this.options.path, file);
    return { changed: addedRows(merged) > 0, attempts: 1, merged, bytes: fileBytes(this.options.path) };
  }
}

export const fileBackend = backendFactory('file', fileOptionsSchema, (options) => new FileBackend(options));
