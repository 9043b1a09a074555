import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';


describe('history fetch/save --remote', () => {
  it('saves with --remote and fetches with its old name --store, to the same remote', async () => {
    const dir = scratchDir();
    const remote = path.join(dir, 'remote', 'history.sqlite');
    writeNight(path.join(dir, 'night.sqlite'), '2026-12-01');
    const save = await runCli(['history', 'save', '--remote', 'file', '--path', remote, '--from', path.join(dir, 'night.sqlite'), '--json'], { cwd: dir });
    expect(save.code, save.stderr).toBe(0);
    const fetch = await runCli(['history', 'fetch', '--store', 'file', '--path', remote, '--to', path.join(dir, 'fetched.sqlite')], { cwd: dir });
    expect(fetch.code, fetch.stderr).toBe(0);
    expect(nightsIn(path.join(dir, 'fetched.sqlite'))).toEqual(['2026-12-01']);
  });

  it('refuses --remote and --store naming different remotes, as a usage error', async () => {
    const dir = scratchDir();
    const result = await runCli(['history', 'fetch', '--remote', 'file', '--store', 's3', '--path', path.join(dir, 'h.sqlite'), '--to', path.join(dir, 'x.sqlite')], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--remote file and --store s3 disagree/);
  });
});
