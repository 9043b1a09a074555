import { describe, expect, it } from 'vitest';
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
});
