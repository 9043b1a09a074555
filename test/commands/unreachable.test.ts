import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { sqlAll } from '../helpers/sql.js';
import { writeSyntheticHistory } from '../helpers/synthetic-history.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * What nightbench talks to is not there: the target's repository, GitHub or EC2 (a closed port, no
 * HTTP answer at all). One line, the documented exit code, and nothing recorded is lost.
 */
describe('a target repository or GitHub that is not there', () => {
  it('a git target whose repository does not exist: one line, exit 3, before any history or cluster', async () => {
    const dir = tempDir('nb-no-repo-');
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify({
      target: { kind: 'git', name: 'gone', repositories: [{ name: 'gone', url: path.join(dir, 'no-such-repository') }] },
      suites: [path.join(repoRoot, 'test/fixtures/suites/tiny')],
      workloads: ['quick_sum'],
      repeats: 1,
    }));
    const result = await runCli(['run', '--config', config], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr.trimEnd().split('\n').filter((line) => line.startsWith('nightbench:'))).toEqual([expect.stringMatching(/^nightbench: git clone failed in .*: fatal: repository '.*no-such-repository' does not exist$/)]);
    expect(result.stderr).not.toMatch(/starting a .* cluster/);
    expect(existsSync(path.join(dir, '.nightbench', 'history.sqlite'))).toBe(false);
  });

  it('GitHub refusing connections: the issue is written as a file, one line, exit 6, the regression stays recorded', async () => {
    const dir = tempDir('nb-no-github-');
    const db = path.join(dir, 'history.sqlite');
    const store = openHistory(db);
    writeSyntheticHistory(store, { seed: 1, workloads: ['sum'], metrics: [{ name: 'wall_time', unit: 's' }], nights: 20, repeats: 3, noise: 0.02, changes: [{ workload: 'sum', metric: 'wall_time', night: 17, factor: 1.5 }] });
    store.close();
    const config = path.join(dir, 'nightbench.config.json');
    writeFileSync(config, JSON.stringify({ history: { path: db }, github: { repository: 'acme/perf', apiUrl: `http://127.0.0.1:${await closedPort()}`, waitUnitMs: 1, retries: 1 } }));
    const result = await runCli(['issues', '--config', config], { cwd: dir, env: { GITHUB_TOKEN: 't0ken' } });
    expect(result.code).toBe(6);
    expect(result.stderr.trimEnd().split('\n').filter((line) => line.startsWith('nightbench:'))).toEqual([
      expect.stringMatching(/^nightbench: 1 issue action failed \(.*no answer from GitHub: connect ECONNREFUSED .*\); the text is in .*reports\/issues and the regressions stay recorded$/),
    ]);
    expect(readdirSync(path.join(dir, 'reports', 'issues')).filter((file) => file.endsWith('.md'))).toHaveLength(1);
    expect(sqlAll(db, "SELECT workload, kind, state, issue_number FROM regressions")).toEqual([{ workload: 'sum', kind: 'regression', state: 'open', issue_number: null }]);
  });

  it.each([
    ['no credentials', { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }, /CredentialsProviderError/],
    ['an EC2 endpoint refusing connections', { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing' }, /ECONNREFUSED/],
  ])('reap with %s: one line, exit 5 (AWS trouble), no stack', async (_, credentials, cause) => {
    const result = await runCli(['reap', '--region', 'us-east-1', '--repository', 'acme/perf', '--json'], {
      cwd: tempDir('nb-no-ec2-'),
      // Nothing leaves the machine: no instance metadata service, no credentials file, EC2 at a closed port.
      env: { AWS_EC2_METADATA_DISABLED: 'true', AWS_PROFILE: undefined, AWS_SHARED_CREDENTIALS_FILE: '/dev/null', AWS_CONFIG_FILE: '/dev/null', AWS_ENDPOINT_URL_EC2: `http://127.0.0.1:${await closedPort()}`, ...credentials },
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    const lines = result.stderr.trimEnd().split('\n').filter((line) => line.startsWith('nightbench:'));
    expect(lines).toEqual([expect.stringMatching(/^nightbench: ec2: listing the instances tagged nightbench:expires-at: /)]);
    expect(lines[0]).toMatch(cause);
  });
});

/** A loopback port nothing listens on: one the system just gave out and took back (fetch refuses well-known ports such as 1 before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
