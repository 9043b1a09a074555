import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../src/log.js';
import { FileBackend, fileBackend, fileOptionsSchema } from '../../src/history-sync/file.js';
import { networkFilesystemOf } from '../../src/history-sync/network-filesystem.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';


describe('file history store', () => {
  it('merges every save into the stored file and fetches a consistent copy', async () => {
    const dir = scratchDir();
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

  it('tells a local disk from network filesystems by their statfs magic number', () => {
    const dir = scratchDir();
    expect(networkFilesystemOf(path.join(dir, 'not', 'yet', 'history.sqlite'))).toBeUndefined();
    expect(networkFilesystemOf('/mnt/share/history.sqlite', () => ({ type: 0x6969 }))).toBe('NFS');
    expect(networkFilesystemOf('/mnt/share/history.sqlite', () => ({ type: 0xff534d42 }))).toBe('CIFS');
  });

  it('refuses to save to a network filesystem, saying why and what to use; allowed, it saves with a warning', async () => {
    const dir = scratchDir();
    const nfs = () => ({ type: 0x6969 });
    const stored = path.join(dir, 'share', 'history.sqlite');
    writeNight(path.join(dir, 'a.sqlite'), '2026-12-01');
    const refusing = new FileBackend(fileOptionsSchema.parse({ path: stored }), { log: silentLog, statfs: nfs });
    await expect(refusing.save(path.join(dir, 'a.sqlite'))).rejects.toThrow(/is on a network filesystem \(NFS\), where SQLite's locking does not hold.*--remote git/);
    expect(existsSync(stored)).toBe(false);

    const warnings: string[] = [];
    const allowed = new FileBackend(fileOptionsSchema.parse({ path: stored, allowNetworkFilesystem: true }), { log: { ...silentLog, warn: (m) => warnings.push(m) }, statfs: nfs });
    expect(await allowed.save(path.join(dir, 'a.sqlite'))).toMatchObject({ changed: true });
    expect(warnings).toEqual([expect.stringContaining('is on NFS: saving because allowNetworkFilesystem is set')]);
  });
});
