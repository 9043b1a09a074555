/**
 * Fetching the history from its remote and saving a night back: what `history fetch|save` and
 * the nightly pipeline's first and last steps do. Each returns the data a script reads and the
 * one line a person reads, so a command only prints them.
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import { requireHistoryFile } from '../history/files.js';
import type { Log } from '../log.js';
import type { FetchOutcome, SaveOutcome } from './backend.js';
import { createBackend } from './registry.js';

/** Where the history is kept between runs, as the command line names it. */
export interface RemoteChoice {
  /** --remote; undefined means git. */
  remote?: string;
  /** The old name of --remote, still accepted so existing workflows keep working. */
  store?: string;
  repo?: string;
  branch?: string;
  path?: string;
  squash?: boolean;
  bucket?: string;
  key?: string;
  region?: string;
  endpoint?: string;
  attempts?: number;
  retryDelay?: number;
  allowNetworkFilesystem?: boolean;
}

export interface Transfer<O> {
  /** What `--json` prints: the remote's description (under its old key `store`), the local file and the outcome. */
  data: { store: string; file: string } & O;
  /** One line for a person. */
  text: string;
}

/** --remote, or its old name --store; giving both with different values is a usage error. */
function remoteName(choice: RemoteChoice): string {
  if (choice.remote && choice.store && choice.remote !== choice.store) {
    throw new NightbenchError('usage', `--remote ${choice.remote} and --store ${choice.store} disagree: --store is the old name of --remote, give one`);
  }
  return choice.remote ?? choice.store ?? 'git';
}

/** The flags the user gave, under the names the backends' schemas use; unset ones are left out. */
function backendOptions(choice: RemoteChoice): Record<string, unknown> {
  const raw: Record<string, unknown> = {
    repo: choice.repo,
    branch: choice.branch,
    path: choice.path,
    squash: choice.squash,
    bucket: choice.bucket,
    key: choice.key,
    region: choice.region,
    endpoint: choice.endpoint,
    attempts: choice.attempts,
    retryDelayMs: choice.retryDelay,
    allowNetworkFilesystem: choice.allowNetworkFilesystem,
  };
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
}

/** Copies the stored history to `to`; a first night finds none and says so. */
export async function fetchHistory(choice: RemoteChoice, to: string, log: Log): Promise<Transfer<FetchOutcome>> {
  const backend = await createBackend(remoteName(choice), backendOptions(choice), { log });
  const outcome = await backend.fetch(to);
  log.info(outcome.found ? `fetched ${backend.description} (${outcome.bytes} bytes) to ${to}` : `no history yet in ${backend.description}: starting a new one`);
  return {
    data: { store: backend.description, file: to, ...outcome },
    text: outcome.found ? `fetched ${backend.description} to ${to}` : `no history stored yet in ${backend.description}`,
  };
}

/** Merges the local history `from` into the stored one and stores it, retrying while another writer moves it. */
export async function saveHistory(choice: RemoteChoice, from: string, log: Log): Promise<Transfer<SaveOutcome>> {
  requireHistoryFile(from, 'history save');
  const backend = await createBackend(remoteName(choice), backendOptions(choice), { log });
  const outcome = await backend.save(from);
  const text = outcome.changed
    ? `saved ${from} to ${backend.description} (${outcome.bytes} bytes${outcome.attempts > 1 ? `, after ${outcome.attempts} tries` : ''})`
    : `${backend.description} already held every run of ${from}: nothing to save`;
  log.info(text);
  return { data: { store: backend.description, file: from, ...outcome }, text };
}
