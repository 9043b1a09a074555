import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { writeNight } from '../history-sync/helpers.js';

/**
 * A command that reads what was recorded refuses a history that is not there (exit 4, README's
 * "history database trouble") instead of creating an empty one where a mistyped --db points and
 * reporting on it with exit 0.
 */
describe('a command that reads the history, given one that does not exist', () => {
  const dir = tempDir('nb-missing-history-');
  const missing = path.join(dir, 'histroy.sqlite');

  it.each([
    ['db status', ['db', 'status']],
    ['detect', ['detect']],
    ['issues', ['issues', '--dry-run']],
    ['ab list', ['ab', 'list']],
    ['ab report', ['ab', 'report', 'abc']],
    ['replay', ['replay', '--from', '2026-11-01', '--to', '2026-11-02']],
    ['tune', ['tune']],
    ['summary', ['summary']],
    ['report', ['report', '--out', path.join(dir, 'site')]],
  ])('%s: one line naming the file, exit 4, nothing created', async (command, args) => {
    const result = await runCli([...args, '--db', missing], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stderr.trimEnd().split('\n')).toEqual([`nightbench: ${command}: ${missing} does not exist`]);
    expect(existsSync(missing)).toBe(false);
  });

  it('report leaves the site already in --out as it was', async () => {
    const site = path.join(dir, 'published');
    mkdirSync(site);
    writeFileSync(path.join(site, 'index.html'), 'the site of last night');
    const result = await runCli(['report', '--db', missing, '--out', site], { cwd: dir });
    expect(result.code).toBe(4);
    expect(readFileSync(path.join(site, 'index.html'), 'utf8')).toBe('the site of last night');
  });

  it('db status changes nothing in a history that exists: a file in rollback-journal mode stays in it', async () => {
    const file = path.join(dir, 'fetched.sqlite');
    writeNight(file, '2026-11-01');
    const journalMode = (mode?: string) => {
      const db = new Database(file);
      try {
        return db.pragma(mode ? `journal_mode = ${mode}` : 'journal_mode', { simple: true });
      } finally {
        db.close();
      }
    };
    // As `history fetch` leaves it: self-contained, no -wal file to travel with it.
    journalMode('DELETE');
    const result = await runCli(['db', 'status', '--json', '--db', file], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ file, pending: [], rows: { runs: 1 } });
    expect(journalMode()).toBe('delete');
  });
});
