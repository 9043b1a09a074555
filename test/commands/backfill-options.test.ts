import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftNight } from '../../src/night.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** backfill records a range: its help offers no --night (which it refuses), and says what to give instead. */
describe('backfill and --night', () => {
  const dir = tempDir('nb-backfill-options-');

  it('leaves --night out of its help, and refuses it naming --from/--to and --nights', async () => {
    const help = await runCli(['backfill', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--from <YYYY-MM-DD>');
    expect(help.stdout).not.toMatch(/--night </);
    const refused = await runCli(['backfill', '--night', '2026-11-01'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd()).toBe('nightbench: backfill takes --from/--to or --nights, not --night');
  });

  // As --night: a typo such as 2099 would be recorded, and every later command would judge it as the latest night.
  const later = shiftNight(new Date().toISOString().slice(0, 10), 2);
  it.each([
    ['--to', ['--from', '2026-01-01', '--to', later], new RegExp(`^nightbench: --to ${later} is in the future: the latest night allowed is tomorrow`)],
    ['--from alone', ['--from', later], new RegExp(`^nightbench: --from ${later} is in the future`)],
    ['a nights file', ['--nights', 'nights.txt'], new RegExp(`^nightbench: nights.txt: night ${later} is in the future`)],
  ])('refuses a night after tomorrow (%s): one line, exit 2, no history created', async (_, args, line) => {
    writeFileSync(path.join(dir, 'nights.txt'), `2026-01-01\n${later}\n`);
    const db = path.join(dir, 'history.sqlite');
    const result = await runCli(['backfill', '--db', db, ...args], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
    expect(existsSync(db)).toBe(false);
  });
});
