// A process for test/threads.test.ts: starts a worker that waits for messages, then fails on its
// own (exit code 2) without finishing it, as a build that fails mid-way does.
import { startThread } from '../../src/threads.js';

const thread = startThread<number, number>(new URL('./echo-worker', import.meta.url), { answer: 1, add: true });
thread.post(1);
process.exitCode = 2;
