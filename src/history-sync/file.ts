import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { NightbenchError } from '../errors.js';
import { backendFactory, type BackendDeps, type FetchOutcome, type HistoryBackend, type SaveOutcome } from './backend.js';
import { networkFilesystemOf, type StatFs } from './network-filesystem.js';
import { copyHistoryFile, mergeRunsInto } from '../history/files.js';
import { addedRows, fileBytes, prepareDestination } from './sqlite-file.js';

export const fileOptionsSchema = z.strictObject({
  /** A path on a local disk every run sees: a self-hosted runner's volume. Not a network share. */
  path: z.string().min(1),
  /**
   * Save to a network filesystem anyway (with a warning). SQLite's locking does not hold there,
   * so only when a single writer ever saves.
   */
  allowNetworkFilesystem: z.boolean().default(false),
});
export type FileOptions = z.output<typeof fileOptionsSchema>;

/**
 * The history as a SQLite file at a fixed path. SQLite's own locking serialises concurrent
 * saves, so a save merges straight into the stored file and never needs to retry. That locking
 * does not hold on a network filesystem, so a save there is refused unless allowed.
 */
export class FileBackend implements HistoryBackend {
  readonly description: string;

  constructor(
    private readonly options: FileOptions,
    private readonly deps: BackendDeps & { statfs?: StatFs },
  ) {
    this.description = `file ${options.path}`;
  }

  async fetch(file: string): Promise<FetchOutcome> {
    if (!existsSync(this.options.path)) return { found: false };
    prepareDestination(file);
    copyHistoryFile(this.options.path, file);
    return { found: true, bytes: fileBytes(file) };
  }

  async save(file: string): Promise<SaveOutcome> {
    const network = networkFilesystemOf(this.options.path, this.deps.statfs);
    if (network && !this.options.allowNetworkFilesystem) {
      throw new NightbenchError(
        'remote',
        `remote history (${this.description}) is on a network filesystem (${network}), where SQLite's locking does not hold and two writers could overwrite each other: use a local disk, --remote git or --remote s3 (allowNetworkFilesystem only if a single writer ever saves)`,
      );
    }
    if (network) this.deps.log.warn(`${this.description} is on ${network}: saving because allowNetworkFilesystem is set; SQLite's locking does not hold there`);
    mkdirSync(path.dirname(path.resolve(this.options.path)), { recursive: true });
    const merged = mergeRunsInto(this.options.path, file);
    return { changed: addedRows(merged) > 0, attempts: 1, merged, bytes: fileBytes(this.options.path) };
  }
}

export const fileBackend = backendFactory('file', fileOptionsSchema, (options, deps) => new FileBackend(options, deps));
