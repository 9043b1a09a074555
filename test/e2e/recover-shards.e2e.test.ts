/**
 * `nightbench shard recover` against the fake GitHub: an earlier night whose save failed left its
 * shard only in its run's artifacts; tonight's history job downloads it, merges it with
 * `db merge`, and the history holds that night. Shards the history already holds add nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../helpers/fake-github.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { nightsIn, writeNight } from '../history-sync/helpers.js';

const repository = 'acme/perf';
const nightly = 41;

describe('shard recover', () => {
  let github: FakeGitHub;
  let dir: string;
  beforeEach(async () => {
    github = await new FakeGitHub().start();
    github.addRepository(repository);
    dir = tempDir('nb-recover-');
    // The issues go to another repository: the runs and their artifacts are the workflow's own.
    writeFileSync(path.join(dir, 'nightbench.config.json'), JSON.stringify({ github: { repository: 'acme/issues-only', apiUrl: github.baseUrl, waitUnitMs: 1, retries: 2 } }));
  });
  afterEach(async () => {
    await github.stop();
  });

  /** A shard database holding `night`, zipped as upload-artifact zips it. */
  const shardZip = (night: string): Uint8Array => {
    const file = path.join(dir, `made-${night}.sqlite`);
    writeNight(file, night);
    return zipSync({ 'shard.sqlite': new Uint8Array(readFileSync(file)) });
  };
  const cli = (args: string[]) => runCli(args, { cwd: dir, env: { GITHUB_TOKEN: 'token', GITHUB_RUN_ID: '100', GITHUB_REPOSITORY: repository } });

  it("brings back the shards of earlier runs that did not succeed, and db merge adds their nights", async () => {
    const now = new Date();
    const recent = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
    github.addWorkflowRun(repository, { id: 100, workflowId: nightly, runNumber: 10, status: 'in_progress', conclusion: null, createdAt: recent(0), artifacts: [] });
    // Its save failed: the night is only in the artifacts.
    github.addWorkflowRun(repository, { id: 99, workflowId: nightly, runNumber: 9, status: 'completed', conclusion: 'failure', createdAt: recent(1), artifacts: [{ id: 1, name: 'shard-0', zip: shardZip('2026-12-05') }, { id: 2, name: 'shard-1', zip: shardZip('2026-12-05') }, { id: 3, name: 'shard-plan', zip: zipSync({}) }] });
    // Saved: not downloaded.
    github.addWorkflowRun(repository, { id: 98, workflowId: nightly, runNumber: 8, status: 'completed', conclusion: 'success', createdAt: recent(2), artifacts: [{ id: 4, name: 'shard-0', zip: shardZip('2026-12-04') }] });
    // Cancelled, one artifact gone, one unreadable.
    github.addWorkflowRun(repository, { id: 97, workflowId: nightly, runNumber: 7, status: 'completed', conclusion: 'cancelled', createdAt: recent(3), artifacts: [{ id: 5, name: 'shard-0', zip: shardZip('2026-12-03'), expired: true }, { id: 6, name: 'shard-1', zip: new TextEncoder().encode('not a zip') }] });
    // Another workflow's failed run, and a nightly older than the window.
    github.addWorkflowRun(repository, { id: 96, workflowId: 42, runNumber: 3, status: 'completed', conclusion: 'failure', createdAt: recent(1), artifacts: [{ id: 7, name: 'shard-0', zip: shardZip('2026-12-02') }] });
    github.addWorkflowRun(repository, { id: 90, workflowId: nightly, runNumber: 1, status: 'completed', conclusion: 'failure', createdAt: recent(20), artifacts: [{ id: 8, name: 'shard-0', zip: shardZip('2026-11-17') }] });

    const recovered = await cli(['shard', 'recover', '--out', 'earlier', '--json']);
    expect(recovered.code, recovered.stderr).toBe(0);
    const outcome = JSON.parse(recovered.stdout) as { runs: number; recovered: { runId: number; artifact: string; file: string }[]; expired: { runId: number; artifact: string }[] };
    expect(outcome.runs).toBe(2);
    expect(outcome.recovered.map((r) => [r.runId, r.artifact])).toEqual([[99, 'shard-0'], [99, 'shard-1']]);
    expect(outcome.expired).toEqual([{ runId: 97, artifact: 'shard-0' }]);
    expect(recovered.stderr).toMatch(/run 97: artifact shard-0 has expired/);
    expect(recovered.stderr).toMatch(/run 97: artifact shard-1 is not a readable zip .*; skipped/);
    // Only the API and the artifacts' storage were asked, nothing of the other workflow's run.
    expect(github.requests.some((r) => r.path.includes('/runs/96/'))).toBe(false);

    // Tonight's history: tonight's shard and the recovered ones, merged once and once again.
    writeNight(path.join(dir, 'history.sqlite'), '2026-12-06');
    const files = outcome.recovered.map((r) => r.file);
    expect((await cli(['db', 'merge', '--db', 'history.sqlite', ...files])).code).toBe(0);
    // One run per shard, as a sharded night records.
    expect(nightsIn(path.join(dir, 'history.sqlite'))).toEqual(['2026-12-05', '2026-12-05', '2026-12-06']);
    const again = await cli(['db', 'merge', '--db', 'history.sqlite', '--json', ...files]);
    expect(again.code, again.stderr).toBe(0);
    expect(nightsIn(path.join(dir, 'history.sqlite'))).toEqual(['2026-12-05', '2026-12-05', '2026-12-06']);
  });

  it('finds nothing to do when every earlier run succeeded', async () => {
    github.addWorkflowRun(repository, { id: 100, workflowId: nightly, runNumber: 2, status: 'in_progress', conclusion: null, createdAt: new Date().toISOString(), artifacts: [] });
    github.addWorkflowRun(repository, { id: 99, workflowId: nightly, runNumber: 1, status: 'completed', conclusion: 'success', createdAt: new Date(Date.now() - 86_400_000).toISOString(), artifacts: [{ id: 1, name: 'shard-0', zip: shardZip('2026-12-05') }] });
    const result = await cli(['shard', 'recover', '--out', 'earlier']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('0 shards of 0 earlier runs that did not succeed\n');
  });

  it('ends a GitHub outage with one line and exit 6, and bad input with exit 2', async () => {
    github.failNext(100);
    const outage = await cli(['shard', 'recover', '--out', 'earlier']);
    expect(outage.code).toBe(6);
    expect(outage.stderr.trim().split('\n').at(-1)).toMatch(/^nightbench: reading run 100 in acme\/perf: GitHub answered 502 after retrying/);
    const noRun = await runCli(['shard', 'recover', '--out', 'earlier'], { cwd: dir, env: { GITHUB_TOKEN: 'token', GITHUB_RUN_ID: undefined, GITHUB_REPOSITORY: repository } });
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toMatch(/needs this run's id/);
  });
});
