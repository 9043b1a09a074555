/**
 * One base error for everything a user can fix or must know about. The CLI prints its message
 * as one line and exits with its kind's code; any other error is a bug and keeps its stack.
 */
export type ErrorKind = 'usage' | 'config' | 'store' | 'remote' | 'suite' | 'cluster' | 'target' | 'git' | 'github' | 'aws';

/** Exit codes mean something to scripts and workflows: 2 for bad input, 3 for environment trouble. */
export const exitCodes: Record<ErrorKind, number> = {
  usage: 2,
  config: 2,
  suite: 2,
  target: 3,
  git: 3,
  store: 4,
  // The remote copy of the history (history fetch/save): the same code as the local store, so
  // scripts that checked for 4 before the two kinds were told apart keep working.
  remote: 4,
  cluster: 5,
  github: 6,
  aws: 5,
};

export class NightbenchError extends Error {
  /**
   * The failure may pass if the same thing is tried again a little later (a server's 5xx, a
   * dropped connection), as opposed to one that will not (no permission, no such repository).
   */
  readonly transient: boolean;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown; transient?: boolean },
  ) {
    super(message, options);
    this.name = 'NightbenchError';
    this.transient = options?.transient ?? false;
  }

  get exitCode(): number {
    return exitCodes[this.kind];
  }
}

export const configError = (message: string) => new NightbenchError('config', message);
export const storeError = (message: string, cause?: unknown) => new NightbenchError('store', message, { cause });
export const suiteError = (message: string, cause?: unknown) => new NightbenchError('suite', message, { cause });
export const clusterError = (message: string, cause?: unknown) => new NightbenchError('cluster', message, { cause });

/** What a file system says of a path it cannot use: the path is wrong, not nightbench. */
const pathErrorCodes = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EACCES', 'EPERM', 'EROFS']);

/**
 * A file system's refusal of a path (an --out folder that does not exist, a file where a folder
 * should be, no permission) as a usage error: the user can act on it, so it is one line, not an
 * internal error with a stack. Undefined for anything else.
 */
export function pathError(error: unknown): NightbenchError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (code === undefined || !pathErrorCodes.has(code) || typeof path !== 'string') return undefined;
  return new NightbenchError('usage', (error as Error).message, { cause: error });
}

/** The last `count` lines of a process's output, joined: where a traceback says what went wrong. */
export function lastLines(text: string, count = 1): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}

/** The first line of an error's message, for one-line reports of errors from libraries. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0] ?? text;
}
