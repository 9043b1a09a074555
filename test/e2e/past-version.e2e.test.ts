/**
 * The Dask suite against a past version of its target, made by a throw-away change on PYTHONPATH:
 * a sitecustomize that removes `distributed.as_completed` (the futures workload imports it) and
 * `SpillBuffer.get_metrics` (distributed has it only since 2022-12-15) from Debian's Dask in every
 * process, the cluster's included. futures is recorded as unsupported, not as a failure;
 * array_reduction runs with spilled_bytes absent, said once for the run; no broken issue.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { leftoverClusterProcesses } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

const pastVersion = `import distributed
import distributed.spill

del distributed.as_completed
distributed.__all__ = [name for name in distributed.__all__ if name != "as_completed"]
del distributed.spill.SpillBuffer.get_metrics
`;

describe('the Dask suite on a version of its target that lacks APIs it uses', () => {
  const dir = tempDir('nb-past-');

  it('records a workload it cannot import as unsupported and a metric it cannot read as absent, never as failures', async () => {
    const shadow = path.join(dir, 'past-version');
    mkdirSync(shadow);
    writeFileSync(path.join(shadow, 'sitecustomize.py'), pastVersion);
    writeFileSync(path.join(dir, 'nightbench.config.json'), JSON.stringify({ environment: { variables: { PYTHONPATH: shadow } } }));
    const result = await runCli(
      ['nightly', '--night', '2022-12-10', '--workers', '2', '--memory', '1GiB', '--repeats', '2', '--scale', '0.05', '--workload', 'futures,array_reduction', '--json'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).runs).toEqual([expect.objectContaining({ status: 'complete', repeats: { ok: 2, failed: 0, timeout: 0, disturbed: 0 } })]);
    expect(result.stderr).toMatch(/futures: unsupported by this version of the target \(ImportError: cannot import name 'as_completed'/);
    expect(result.stderr.match(/spilled_bytes absent: distributed \S+ in \S+ has no SpillBuffer.get_metrics/g)).toHaveLength(1);

    const history = new Database(path.join(dir, '.nightbench/history.sqlite'), { readonly: true });
    expect(history.prepare('SELECT workload, reason FROM unsupported_workloads').all()).toEqual([{ workload: 'futures', reason: expect.stringContaining("cannot import name 'as_completed'") }]);
    expect(history.prepare('SELECT workload, metric, reason FROM absent_metrics').all()).toEqual([{ workload: 'array_reduction', metric: 'spilled_bytes', reason: expect.stringMatching(/has no SpillBuffer.get_metrics/) }]);
    expect(history.prepare("SELECT workload, status FROM repeats ORDER BY repeat").all()).toEqual([{ workload: 'array_reduction', status: 'ok' }, { workload: 'array_reduction', status: 'ok' }]);
    expect(history.prepare("SELECT count(*) AS n FROM results WHERE metric = 'spilled_bytes'").get()).toEqual({ n: 0 });
    expect(history.prepare("SELECT count(*) AS n FROM results WHERE metric = 'tasks' AND value > 0").get()).toEqual({ n: 2 });
    history.close();
    // Detection and issues ran (no GITHUB_TOKEN: Markdown files): nothing says "Broken".
    const issuesDir = path.join(dir, 'reports/issues');
    const written = existsSync(issuesDir) ? readdirSync(issuesDir).map((file) => readFileSync(path.join(issuesDir, file), 'utf8')) : [];
    expect(written.filter((text) => text.includes('Broken'))).toEqual([]);
    expect(leftoverClusterProcesses(dir)).toEqual([]);
  });
});
