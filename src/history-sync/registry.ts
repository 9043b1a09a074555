import { configError } from '../errors.js';
import type { BackendDeps, BackendFactory, HistoryBackend } from './backend.js';

interface BackendEntry {
  /** What the backend is, for `--help`. */
  summary: string;
  load(): Promise<BackendFactory>;
}

/**
 * Every history store backend, by the name `--remote` (old name `--store`) takes. A new backend is one entry here;
 * heavy SDKs (S3) load only when their backend is chosen.
 */
const backends: Record<string, BackendEntry> = {
  git: {
    summary: 'a SQLite file on a dedicated branch of a git repository (needs nothing beyond GitHub)',
    load: async () => (await import('./git-branch.js')).gitBranchBackend,
  },
  s3: {
    summary: 'a SQLite object in an S3 bucket, written with a conditional put',
    load: async () => (await import('./s3.js')).s3Backend,
  },
  file: {
    summary: 'a SQLite file at a path every run sees (self-hosted runners)',
    load: async () => (await import('./file.js')).fileBackend,
  },
};

export function backendNames(): string[] {
  return Object.keys(backends);
}

/** "name: summary" of every backend, for `--help`. */
export function backendSummaries(): string {
  return Object.entries(backends)
    .map(([name, entry]) => `${name}: ${entry.summary}`)
    .join('; ');
}

/** The backend `name` with its options checked by its own schema (an option it does not take is an error). */
export async function createBackend(name: string, options: Record<string, unknown>, deps: BackendDeps): Promise<HistoryBackend> {
  const entry = backends[name];
  if (!entry) throw configError(`--remote: unknown history remote "${name}"; known: ${backendNames().join(', ')}`);
  return (await entry.load())(options, deps);
}
