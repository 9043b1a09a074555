/**
 * Work run in a worker thread of this process: started from the compiled build or from the
 * sources, handed further messages while it works, and its result or its error handed back.
 *
 * @module
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { NightbenchError, type ErrorKind } from './errors.js';

/** What a worker posts: its result, or the error that ended it. */
type WorkerMessage<T> = { result: T } | { error: { message: string; kind?: ErrorKind } };

/** What the starting thread posts after the data: one more message, or that none follow. */
type ParentMessage<M> = { message: M } | { end: true };

/** A worker thread at work on the data it was started with. */
export interface Thread<T, M> {
  /** Hands the worker one more message (cloned into it); its body takes them in order. */
  post(message: M): void;
  /** Tells the worker that no more messages follow, and resolves with its result. */
  finish(): Promise<T>;
}

/**
 * Starts the worker module `entry` (a file beside the caller, named without extension) with
 * `data`; `finish` resolves with what its `serveInThread` body returns. A `NightbenchError` thrown
 * there rejects here as one of the same kind (its exit code and one-line message are the CLI's).
 * Callers may await `finish` only after other work: a failure before then is still theirs, not
 * an unhandled rejection of the process. Messages posted after the worker failed are dropped.
 * Until `finish`, the worker holds the process open no longer than the caller's own work does.
 */
export function startThread<T, M = never>(entry: URL, data: unknown): Thread<T, M> {
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
  // Until it is finished, a worker waiting for messages does not hold the process open: a starting
  // thread that fails first ends the process as it would without the worker.
  worker.unref();
  const post = (message: ParentMessage<M>) => worker.postMessage(message);
  return {
    post: (message) => post({ message }),
    finish: () => {
      worker.ref();
      post({ end: true });
      return done;
    },
  };
}

/**
 * The worker's side: runs `body` with the data it was started with and the messages posted to it
 * (they end when the starting thread finishes), and posts its result or error. A body that does
 * not read the messages ends the worker as soon as it returns.
 */
export async function serveInThread<D, T, M = never>(body: (data: D, messages: AsyncIterable<M>) => T | Promise<T>): Promise<void> {
  const port = parentPort!;
  const post = (message: WorkerMessage<T>) => port.postMessage(message);
  // Messages are queued as they arrive, for the body to take in order when it is ready (a worker
  // busy with its first work takes them after it); the listener holds the thread open until they
  // end or the body returns.
  const queue: M[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const listen = (message: ParentMessage<M>) => {
    if ('end' in message) {
      ended = true;
      port.off('message', listen);
    } else {
      queue.push(message.message);
    }
    wake?.();
  };
  port.on('message', listen);
  async function* messages(): AsyncGenerator<M> {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }
  try {
    post({ result: await body(workerData as D, messages()) });
  } catch (error) {
    post({ error: error instanceof NightbenchError ? { message: error.message, kind: error.kind } : { message: error instanceof Error ? (error.stack ?? error.message) : String(error) } });
  } finally {
    port.off('message', listen);
  }
}
