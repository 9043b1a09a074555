/** Work in a worker thread: its answer, the messages it is handed meanwhile, and its errors with their kind kept. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NightbenchError } from '../src/errors.js';
import { startThread } from '../src/threads.js';

const entry = new URL('./helpers/echo-worker', import.meta.url);

describe('startThread', () => {
  it("answers with the worker's result", async () => {
    expect(await startThread<number>(entry, { answer: 21 }).finish()).toBe(42);
  });

  it('hands the worker every message posted until it finishes, those posted before it listened too', async () => {
    const thread = startThread<number, number>(entry, { answer: 1, add: true });
    for (let n = 1; n <= 100; n++) thread.post(n);
    await new Promise((resolve) => setTimeout(resolve, 50));
    thread.post(1000);
    expect(await thread.finish()).toBe(1 + 5050 + 1000);
  });

  it('does not hold the process open when the starting thread ends without finishing it', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./helpers/fail-before-finish.ts', import.meta.url))], { timeout: 10_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
  }, 15_000);

  it("rejects with the worker's NightbenchError, kind and one-line message kept, and with other errors' messages", async () => {
    const failure = await startThread(entry, { fail: 'store' }).finish().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NightbenchError);
    expect(failure).toMatchObject({ kind: 'store', message: 'history database x.sqlite: file is not a database' });
    const failed = startThread<number, number>(entry, { fail: 'bug', add: true });
    failed.post(1);
    await expect(failed.finish()).rejects.toThrow(/a bug/);
  });
});
