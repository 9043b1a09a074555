import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../src/log.js';
import { fileBackend } from '../../src/history-sync/file.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('file history store', () => {
  it('merges every save into the stored file and fetches a consistent copy', async () => {
    const dir = scratchDir();
    dirs.push(dir);
    const backend = fileBackend({ path: path.join(dir, 'store', 'history.sqlite') }, { log: silentLog });
    expect(await backend.fetch(path.join(dir, 'fetched.sqlite'))).toEqual({ found: false });
    writeNight(path.join(dir, 'a.sqlite'), '2026-12-01');
    writeNight(path.join(dir, 'b.sqlite'), '2026-12-02');
    expect(await backend.save(path.join(dir, 'a.sqlite'))).toMatchObject({ changed: true, attempts: 1 });
    await backend.save(path.join(dir, 'b.sqlite'));
    expect(await backend.save(path.join(dir, 'b.sqlite'))).toMatchObject({ changed: false });
    expect((await backend.fetch(path.join(dir, 'fetched.sqlite'))).found).toBe(true);
    expect(nightsIn(path.join(dir, 'fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02']);
  });
});
