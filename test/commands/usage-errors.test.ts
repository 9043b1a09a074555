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
    ['help for a command that does not exist', ['help', 'frob'], /^nightbench: unknown command 'frob' \(run with --help for usage\)$/],
    ['a mistyped option of a command', ['detect', '--nigth', '2026-12-01'], /^nightbench: unknown option '--nigth' \(Did you mean --night\?\) \(run with --help for usage\)$/],
    ['an unknown option of a subcommand', ['db', 'status', '--frob'], /^nightbench: unknown option '--frob' \(run with --help for usage\)$/],
    ['a required option left out', ['shard', 'plan'], /^nightbench: required option '--shards <n>' not specified \(run with --help for usage\)$/],
    // Counts and durations that no config key checks later: a negative default made a plan of "-60s".
    ['a duration below zero', ['shard', 'plan', '--shards', '2', '--default-seconds', '-5'], /^nightbench: option '--default-seconds <s>' argument '-5' is invalid\. --default-seconds must be at least 0, got "-5" \(run with --help for usage\)$/],
    ['a count of none', ['summary', '--expect-shards', '0'], /^nightbench: option '--expect-shards <n>' argument '0' is invalid\. --expect-shards must be at least 1, got "0"/],
    ['a count below zero', ['report', '--drilldown-nights', '-1'], /^nightbench: option '--drilldown-nights <n>' argument '-1' is invalid\. --drilldown-nights must be at least 0/],
    // GitHub's and the history's numbers start at 1: a negative one was taken as none given ("--issue N is needed without an event").
    ['an issue number below 1', ['triage', '--issue', '-3'], /^nightbench: option '--issue <n>' argument '-3' is invalid\. --issue must be at least 1, got "-3"/],
    ['an episode id of 0', ['bisect', '--episode', '0'], /^nightbench: option '--episode <id>' argument '0' is invalid\. --episode must be at least 1/],
  ])('%s: one line, exit 2', async (_, args, line) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
  });
});
