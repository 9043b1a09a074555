import { describe, expect, it } from 'vitest';
import { availabilityNotes } from '../../src/report/availability.js';
import { renderWorkloadPage } from '../../src/report/render-workload.js';
import type { ReportRun } from '../../src/report/types.js';

const run = (id: string, night: string, dask: string): ReportRun => ({
  id, suite: 'dask', night, startedAt: `${night}T03:00:00Z`, environmentName: 'local', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB',
  commits: [{ repo: 'dask', sha: dask }, { repo: 'distributed', sha: `d${dask}` }],
});
const runs = [run('r1', '2022-12-01', '1111111aaaa'), run('r2', '2022-12-02', '2222222bbbb'), run('r3', '2022-12-03', '3333333cccc'), run('r4', '2022-12-04', '4444444dddd')];
const reason = "ImportError: cannot import name 'as_completed' from 'distributed'";

describe('where a workload becomes available', () => {
  it('names the commits of the first night that measured it after the last night it could not run', () => {
    const unsupported = [{ runId: 'r1', workload: 'futures', reason }, { runId: 'r2', workload: 'futures', reason }];
    // r3 failed for another reason (no values): it is r4 that first measured it.
    const notes = availabilityNotes(runs, unsupported, (runId) => runId === 'r4');
    expect(notes.get('dask\u0000futures')).toBe(`not available before dask@4444444, distributed@d444444 (2022-12-04): earlier versions of the target cannot run it (${reason})`);
  });

  it('says so when no night has measured it yet', () => {
    const notes = availabilityNotes(runs, [{ runId: 'r4', workload: 'futures', reason }], () => false);
    expect(notes.get('dask\u0000futures')).toBe(`not available up to 2022-12-04: this version of the target cannot run it (${reason})`);
  });

  it('is shown at the top of the workload page', () => {
    const page = renderWorkloadPage({ suite: 'dask', workload: 'futures', variants: [], failures: [], availability: 'not available before dask@4444444 (2022-12-04): reasons' }, '2026-12-04T00:00:00Z');
    expect(page).toContain('<p class="availability">not available before dask@4444444 (2022-12-04): reasons</p>');
  });
});
