import type { z } from 'zod';
import { validate } from '../validation.js';
import type { MergeCounts } from '../history/merge-queries.js';
import type { Log } from '../log.js';

/**
 * Where the history lives between workflow runs. A runner starts with nothing: the nightly
 * job fetches the history, adds its night, and saves it back. Saving merges our runs into the
 * stored copy (never overwrites it), so two writers that raced both keep their nights.
 */
export interface HistoryBackend {
  /** One line naming the place, without credentials, for logs and summaries. */
  readonly description: string;
  /** Copies the stored history to `file`; `found: false` when nothing is stored yet (the first night). */
  fetch(file: string): Promise<FetchOutcome>;
  /** Merges the runs of `file` into the stored history and stores the result. */
  save(file: string): Promise<SaveOutcome>;
}

export interface FetchOutcome {
  found: boolean;
  /** The stored version that was fetched (a commit, an ETag), when the backend has one. */
  revision?: string;
  bytes?: number;
}

export interface SaveOutcome {
  /** False when the stored history already held every row: nothing was written. */
  changed: boolean;
  revision?: string;
  /** How many tries it took; more than one means another writer moved the history meanwhile. */
  attempts: number;
  merged: MergeCounts;
  bytes: number;
}

export interface BackendDeps {
  log: Log;
}

/** Builds a backend from the raw options of the command line; the backend's schema checks them. */
export type BackendFactory = (options: Record<string, unknown>, deps: BackendDeps) => HistoryBackend;

/** A factory that validates its options with `schema` (unknown options are errors naming the remote) before `create`. */
export function backendFactory<S extends z.ZodType>(name: string, schema: S, create: (options: z.output<S>, deps: BackendDeps) => HistoryBackend): BackendFactory {
  return (options, deps) => create(validate(schema, options, `history remote ${name}`), deps);
}
