import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sqlGet } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';
import { writeNight } from '../history-sync/helpers.js';

/**
 * Every date a command takes is checked as `--night` is (src/commands/input.ts): a real calendar
 * date no later than tomorrow, refused with one line and exit 2 before the history is touched.
 */
describe('date options of the history commands', () => {
  const dir = tempDir('nb-dates-');
  const db = path.join(dir, 'history.sqlite');
  writeNight(db, '2026-11-01');
  const samples = () => (sqlGet(db, 'SELECT count(*) AS n FROM samples') as { n: number }).n;

  it.each([
    ['prune before a date in the future (a typo would delete every night\'s samples)', ['history', 'prune', '--before', '2099-01-01'], /^nightbench: --before 2099-01-01 is in the future: the latest night allowed is tomorrow, \d{4}-\d{2}-\d{2} \(UTC\)$/],
    ['prune before a day that does not exist', ['history', 'prune', '--before', '2026-02-30'], /^nightbench: --before must be a calendar date such as 2026-12-01, got "2026-02-30"$/],
    ['export a night that does not exist', ['history', 'export', '--format', 'bmf', '--night', '2026-02-30'], /^nightbench: --night must be a calendar date such as 2026-12-01, got "2026-02-30"$/],
    ['tune on a night in the future', ['tune', '--night', '2099-01-01'], /^nightbench: --night 2099-01-01 is in the future/],
  ])('%s: one line, exit 2, the history unchanged', async (_, args, line) => {
    const before = samples();
    expect(before).toBeGreaterThan(0);
    const result = await runCli([...args, '--db', db], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
    expect(samples()).toBe(before);
  });
});
