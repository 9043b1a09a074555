import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneHistory } from '../../src/history-sync/prune.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';

describe('pruneHistory', () => {
  const dir = scratchDir('nb-prune-');

  it('counts on a dry run and changes nothing, then prunes after archiving a full copy, saying the size before and after', () => {
    const file = path.join(dir, 'history.sqlite');
    writeNight(file, '2026-11-01');
    const dry = pruneHistory(file, { before: '2026-12-01', dryRun: true });
    expect(dry.data).toMatchObject({ file, before: '2026-12-01', dryRun: true });
    expect(dry.data.bytesAfter).toBe(dry.data.bytesBefore);
    expect(dry.text).toBe(`would delete ${dry.data.samples} sample rows of ${dry.data.runs} runs before 2026-12-01; ${file}: ${dry.data.bytesBefore} -> ${dry.data.bytesAfter} bytes`);

    const archiveFile = path.join(dir, 'cold.sqlite');
    const pruned = pruneHistory(file, { before: '2026-12-01', archive: 'cold.sqlite', archiveFile });
    expect(pruned.data.archive).toBe('cold.sqlite');
    expect(pruned.text).toMatch(/^deleted \d+ sample rows of \d+ runs before 2026-12-01; /);
    expect(nightsIn(archiveFile)).toEqual(['2026-11-01']);
    expect(nightsIn(file)).toEqual(['2026-11-01']);
  });

  it('refuses a history that does not exist as a store error, creating nothing', () => {
    const file = path.join(dir, 'none.sqlite');
    expect(() => pruneHistory(file, { before: '2026-12-01' })).toThrow(expect.objectContaining({ kind: 'store', message: `history prune: ${file} does not exist` }));
    expect(existsSync(file)).toBe(false);
  });
});
