import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sqlGet } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';
import { writeNight } from '../history-sync/helpers.js';

/**
 * A path the user gave that the file system refuses (a folder that does not exist, a file where a
 * folder should be) is bad input: one line naming it and exit 2, never an internal error (exit 70).
 */
describe('paths a command cannot use', () => {
  const dir = tempDir('nb-paths-');
  const db = path.join(dir, 'history.sqlite');
  writeNight(db, '2026-11-01');
  const samples = () => (sqlGet(db, 'SELECT count(*) AS n FROM samples') as { n: number }).n;
  const missingFolder = path.join(dir, 'no-such-folder');
  const aFile = path.join(dir, 'a-file');
  writeFileSync(aFile, 'not a folder\n');

  it.each([
    ['history export --out into a folder that does not exist', ['history', 'export', '--format', 'csv', '--out', path.join(missingFolder, 'all.csv')], /^nightbench: ENOENT: no such file or directory, open '.*no-such-folder\/all\.csv'$/],
    ['shard plan --out into a folder that does not exist', ['shard', 'plan', '--shards', '2', '--out', path.join(missingFolder, 'plan.json')], /^nightbench: ENOENT: no such file or directory, open '.*no-such-folder\/plan\.json'$/],
    ['replay --issues-dir that is a file', ['replay', '--from', '2026-11-01', '--to', '2026-11-01', '--issues-dir', aFile], /^nightbench: ENOTDIR: not a directory, scandir '.*a-file'$/],
    ['history prune --archive over a file that is there', ['history', 'prune', '--before', '2026-12-01', '--archive', aFile], /^nightbench: cannot write the archive .*a-file: .+; nothing was pruned$/],
    ['history prune --archive into a folder that does not exist', ['history', 'prune', '--before', '2026-12-01', '--archive', path.join(missingFolder, 'cold.sqlite')], /^nightbench: cannot write the archive .*no-such-folder\/cold\.sqlite: unable to open database: .*; nothing was pruned$/],
  ])('%s: one line, exit 2, the history unchanged', async (_, args, line) => {
    const before = samples();
    expect(before).toBeGreaterThan(0);
    const result = await runCli([...args, '--db', db], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
    expect(samples()).toBe(before);
  });
});
