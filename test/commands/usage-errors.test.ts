import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * commander's own usage errors read as nightbench's others do (README, Commands): one line
 * "nightbench: ...", exit 2, nothing on stdout.
 */
describe('usage errors', () => {
  const dir = tempDir('nb-usage-');

  it.each([
    ['a mistyped command', ['nighty'], /^nightbench: unknown command 'nighty' \(Did you mean nightly\?\) \(run with --help for usage\)$/],
    ['a mistyped option of a command', ['detect', '--nigth', '2026-12-01'], /^nightbench: unknown option '--nigth' \(Did you mean --night\?\) \(run with --help for usage\)$/],
    ['an unknown option of a subcommand', ['db', 'status', '--frob'], /^nightbench: unknown option '--frob' \(run with --help for usage\)$/],
    ['a required option left out', ['shard', 'plan'], /^nightbench: required option '--shards <n>' not specified \(run with --help for usage\)$/],
  ])('%s: one line, exit 2', async (_, args, line) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
  });
});
