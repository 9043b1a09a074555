// A worker for test/threads.test.ts: answers, adds up the numbers it is handed, or fails as told.
import { NightbenchError } from '../../src/errors.js';
import { serveInThread } from '../../src/threads.js';

await serveInThread<{ answer?: number; add?: boolean; fail?: 'store' | 'bug' }, number, number>(async (data, messages) => {
  if (data.fail === 'store') throw new NightbenchError('store', 'history database x.sqlite: file is not a database');
  if (data.fail === 'bug') throw new Error('a bug');
  if (!data.add) return data.answer! * 2;
  let sum = data.answer!;
  for await (const n of messages) sum += n;
  return sum;
});
