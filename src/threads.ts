/**
 * Work run in a worker thread of this process: started from the compiled build or from the
 * sources, and its result or its error handed back.
 *
 * @module
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { NightbenchError, type ErrorKind } from './errors.js';

/** What a worker posts: its result, or the error that ended it. */
type WorkerMessage<T> = { result: T } | { error: { message: string; kind?: ErrorKind } };

/**
 * Runs the worker module `entry` (a file beside the caller, named without extension) with
 * `data`, and resolves with what its `serveInThread` body returns. A `NightbenchError` thrown
 * there rejects here as one of the same kind (its exit code and one-line message are the CLI's).
 * Callers may await the promise only after other work: a failure before then is still theirs,
 * not an unhandled rejection of the process.
 */
export function runInThread<T>(entry: URL, data: unknown): Promise<T> {
  // The compiled build (dist/) runs the worker's JavaScript; from the sources (tests, benches, a
  // development checkout) the worker registers the TypeScript loader first, as bin/nightbench.js
  // does: the loader the starting thread runs under is not the worker's (Node 20). It is resolved
  // here, from this file: code run in a worker resolves names from the working folder.
  const fromSources = import.meta.url.endsWith('.ts');
  const file = new URL(`${entry.href}.${fromSources ? 'ts' : 'js'}`);
  const worker = fromSources
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(file.href)}))`, { eval: true, workerData: data })
    : new Worker(file, { workerData: data });
  const done = new Promise<T>((resolve, reject) => {
    let settled = false;
    worker.once('message', (message: WorkerMessage<T>) => {
      settled = true;
      if ('result' in message) resolve(message.result);
      else reject(message.error.kind ? new NightbenchError(message.error.kind, message.error.message) : new Error(message.error.message));
    });
    worker.once('error', (error) => ((settled = true), reject(error)));
    worker.once('exit', (code) => settled || reject(new Error(`the worker thread ${file.pathname.split('/').at(-1)} stopped (exit ${code}) before it answered`)));
  });
  done.catch(() => {});
  return done;
}

/** The worker's side: runs `body` with the data it was started with and posts its result or error. */
export async function serveInThread<D, T>(body: (data: D) => T | Promise<T>): Promise<void> {
  const post = (message: WorkerMessage<T>) => parentPort!.postMessage(message);
  try {
    post({ result: await body(workerData as D) });
  } catch (error) {
    post({ error: error instanceof NightbenchError ? { message: error.message, kind: error.kind } : { message: error instanceof Error ? (error.stack ?? error.message) : String(error) } });
  }
}
