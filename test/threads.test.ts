/** Work in a worker thread: its answer, and its errors with their kind kept. */
import { describe, expect, it } from 'vitest';
import { NightbenchError } from '../src/errors.js';
import { runInThread } from '../src/threads.js';

const entry = new URL('./helpers/echo-worker', import.meta.url);

describe('runInThread', () => {
  it("answers with the worker's result", async () => {
    expect(await runInThread<number>(entry, { answer: 21 })).toBe(42);
  });

  it("rejects with the worker's NightbenchError, kind and one-line message kept, and with other errors' messages", async () => {
    const failure = await runInThread(entry, { fail: 'store' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NightbenchError);
    expect(failure).toMatchObject({ kind: 'store', message: 'history database x.sqlite: file is not a database' });
    await expect(runInThread(entry, { fail: 'bug' })).rejects.toThrow(/a bug/);
  });
});
