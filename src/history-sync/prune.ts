/**
 * Keeping the stored history small: the per-process samples of old nights go (their results
 * stay), optionally after a full copy for cold storage. What `history prune` does.
 *
 * @module
 */
import { pruneHistoryFile, requireHistoryFile } from '../history/files.js';
import type { PruneOutcome } from '../history/maintenance-queries.js';
import { fileBytes } from './sqlite-file.js';

export interface PruneRequest {
  /** YYYY-MM-DD: samples of earlier nights are deleted. */
  before: string;
  /** --archive as given, which the JSON repeats. */
  archive?: string;
  /** Where that copy goes (the given path resolved): a full copy of the history, written first. */
  archiveFile?: string;
  /** Count only, change nothing. */
  dryRun?: boolean;
}

/** Prunes `file` and says what went, with the file's size before and after. */
export function pruneHistory(file: string, request: PruneRequest): { data: PruneOutcome & { file: string; archive?: string; bytesBefore: number; bytesAfter: number }; text: string } {
  requireHistoryFile(file, 'history prune');
  const bytesBefore = fileBytes(file);
  const outcome = pruneHistoryFile(file, request.before, { dryRun: request.dryRun, archive: request.archiveFile });
  const bytesAfter = fileBytes(file);
  return {
    data: { file, ...outcome, archive: request.archive, bytesBefore, bytesAfter },
    text: `${request.dryRun ? 'would delete' : 'deleted'} ${outcome.samples} sample rows of ${outcome.runs} runs before ${request.before}; ${file}: ${bytesBefore} -> ${bytesAfter} bytes`,
  };
}
