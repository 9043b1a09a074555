/**
 * Only whole points are judged: a shard stopped at its time limit (SIGTERM, as a workflow job is)
 * in the middle of a workload leaves one measured repeat of three. That workload is no point of
 * its series on that night: detection neither judges it nor lets it start an episode, however far
 * its one value lies from the baseline; a later whole night is judged as usual. The pages show
 * that night's repeat, marked as cut short.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitePaths } from '../../src/report/paths.js';
import type { WorkloadPage } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';
import { cheapa, cheapb, cheapTargetConfig, createCheapTarget } from '../helpers/cheap-target.js';
import { readDataScript } from '../helpers/site-data.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };

interface Verdict {
  kind: string;
  night?: string;
  identity: { workload: string; metric: string };
}

describe('a night a killed shard cut short', () => {
  const target = createCheapTarget();
  const dir = tempDir('nb-partial-');

  it('is not a point of the series of the workload it cut short', async () => {
    writeFileSync(
      path.join(dir, 'nightbench.config.json'),
      JSON.stringify({ ...cheapTargetConfig(target), repeats: 3, detection: { minBaselineNights: 2, alpha: 0.05, noiseMultiple: 2, thresholds: ['cpu_time', 'peak_memory', 'average_memory'].map((metric) => ({ metric, threshold: 10 })) } }),
    );
    target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Add cheapa', ada, '2026-10-31T10:00:00Z');
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-10-31T09:00:00Z');
    for (const night of ['2026-11-01', '2026-11-02', '2026-11-03']) {
      const result = await runCli(['nightly', '--no-detect', '--night', night], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
    }
    // Ten times slower: a whole night of it is a regression beyond doubt.
    target.a.commit({ 'cheapa.py': cheapa(2) }, 'Be thorough', ada, '2026-11-03T10:00:00Z');
    let stopped = false;
    const killed = await runCli(['nightly', '--no-detect', '--night', '2026-11-04'], {
      cwd: dir,
      onStderr: (child, stderr) => {
        if (stopped || !/work repeat 1\/3: ok/.test(stderr)) return;
        stopped = true;
        child.kill('SIGTERM');
      },
    });
    expect(killed.code, killed.stderr).toBe(130);

    const judged = async (night: string) => {
      const result = await runCli(['detect', '--night', night, '--json'], { cwd: dir });
      expect([0, 1]).toContain(result.code);
      const report = JSON.parse(result.stdout) as { verdicts: Verdict[]; activeEpisodes: unknown[] };
      return { verdicts: report.verdicts.filter((v) => v.identity.workload === 'work' && v.identity.metric === 'work_time'), episodes: report.activeEpisodes };
    };
    const partial = await judged('2026-11-04');
    expect(partial.verdicts.filter((v) => v.kind !== 'missing' && v.kind !== 'no-data'), JSON.stringify(partial.verdicts)).toEqual([]);
    expect(partial.episodes).toEqual([]);

    const site = path.join(dir, 'site');
    const report = await runCli(['report', '--out', site], { cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    const data = readFileSync(path.join(site, sitePaths.workloadData('cheap', 'work')), 'utf8');
    const page = readDataScript(data) as WorkloadPage;
    const series = page.variants[0]!.metrics.find((m) => m.metric === 'work_time')!;
    expect(series.markers.filter((m) => m.kind === 'cut-short')).toEqual([{ night: '2026-11-04', kind: 'cut-short', label: 'incomplete: run cut short (1 of 3 repeats measured; not judged)' }]);
    expect(series.median.at(-1)).toBeNull();
    expect(series.repeats[0]!.at(-1)).not.toBeNull();

    const whole = await runCli(['nightly', '--no-detect', '--night', '2026-11-05'], { cwd: dir });
    expect(whole.code, whole.stderr).toBe(0);
    const next = await judged('2026-11-05');
    expect(next.verdicts.map((v) => v.kind)).toEqual(['regression']);
  });
});
