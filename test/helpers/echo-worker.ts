// A worker for test/threads.test.ts: answers or fails as told.
import { NightbenchError } from '../../src/errors.js';
import { serveInThread } from '../../src/threads.js';

await serveInThread<{ answer?: number; fail?: 'store' | 'bug' }, number>((data) => {
  if (data.fail === 'store') throw new NightbenchError('store', 'history database x.sqlite: file is not a database');
  if (data.fail === 'bug') throw new Error('a bug');
  return data.answer! * 2;
});
