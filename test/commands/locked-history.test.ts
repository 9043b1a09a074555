import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { writeNight } from '../history-sync/helpers.js';

/**
 * A command whose write meets another writer's lock waits it out (src/history/busy-retry.ts, up to
 * 2 minutes) and says so at once on stderr, so that it does not look hung meanwhile.
 */
describe('a history another writer holds', () => {
  it('detect says it waits for the lock, then judges the night once the lock is gone', async () => {
    const dir = tempDir('nb-locked-');
    const db = path.join(dir, 'history.sqlite');
    writeNight(db, '2026-11-01');
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify({ history: { path: db, busyTimeoutMs: 100 } }));
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    const release = () => {
      if (holder.inTransaction) holder.exec('ROLLBACK');
    };
    // Released when detect says it waits, or after 5 s whatever it says: detect must not wait silently.
    const fallback = setTimeout(release, 5_000);
    try {
      const result = await runCli(['detect', '--config', config], {
        cwd: dir,
        onStderr: (_, stderr) => {
          if (stderr.includes('is locked by another writer; waiting')) release();
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`warning: history database ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is locked by another writer; waiting for it \\(up to 120 s\\)\\n`));
      expect(result.stderr).toMatch(/judged \d+ series of night 2026-11-01/);
    } finally {
      clearTimeout(fallback);
      release();
      holder.close();
    }
  });
});
