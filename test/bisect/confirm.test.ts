import { describe, expect, it } from 'vitest';
import { confirmationOf } from '../../src/bisect/confirm.js';
import { rerun } from '../../src/bisect/search.js';
import { simulatedPort } from '../../src/bisect/simulated.js';
import { confirmOpenings } from '../../src/issues/confirm.js';
import type { IssueGroup } from '../../src/issues/group.js';
import type { IssueAction } from '../../src/issues/plan.js';
import type { TrackedIssue } from '../../src/issues/tracker.js';
import { githubSchema } from '../../src/config/github-section.js';
import { buildLinks } from '../../src/issues/links.js';
import { noPeople } from '../../src/issues/people.js';
import { renderIssue, type RenderContext } from '../../src/issues/render.js';
import { silentLog } from '../../src/log.js';

const renderContext: RenderContext = { night: '2026-11-02', ranges: {}, people: noPeople, links: buildLinks(githubSchema.parse({})), mention: 'none', cli: 'npx nightbench', nightsRun: () => 0 };

const identity = { suite: 'dask', workload: 'shuffle', workloadVersion: '1', metric: 'wall_time', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB' };

/** A rerun of last good (state 0) against first bad (state 1) on the simulated runner, judged for an episode of `ratio`. */
async function confirmOnSimulated(options: { step: number; cv: number; ratio: number; seed: number }) {
  const port = simulatedPort({ base: 10, steps: { 1: options.step }, cv: options.cv, seed: options.seed, secondsPerRepeat: 30 });
  const result = await rerun(port, { mode: 'metric', last: 1, priorNoise: options.cv });
  return confirmationOf(result, { ratio: options.ratio, identity, unit: 's' }, port.measured.length * 30);
}

describe('confirmationOf a rerun', () => {
  it.each([
    ['reproduces a real +30% step at 5% noise', { step: 0.3, cv: 0.05, ratio: 1.3 }, true],
    ['does not reproduce a false alarm (no step)', { step: 0, cv: 0.05, ratio: 1.3 }, false],
    ['does not reproduce a regression whose rerun shows an improvement', { step: -0.25, cv: 0.05, ratio: 1.3 }, false],
    ['reproduces an improvement the same way', { step: -0.25, cv: 0.05, ratio: 0.75 }, true],
  ] as const)('%s', async (_, options, reproduced) => {
    const confirmation = await confirmOnSimulated({ ...options, seed: 11 });
    expect(confirmation.reproduced).toBe(reproduced);
    expect(confirmation).toMatchObject({ workload: 'shuffle', metric: 'wall_time', unit: 's', repeats: 12, clusterSeconds: 360 });
  });

  it('carries the ratio of first bad against last good, its interval and p', async () => {
    const confirmation = await confirmOnSimulated({ step: 0.3, cv: 0.05, ratio: 1.3, seed: 5 });
    expect(confirmation.ratio!.ratio).toBeGreaterThan(1.15);
    expect(confirmation.ratio!.low).toBeGreaterThan(1);
    expect(confirmation.p).toBeLessThan(0.05);
  });
});

describe('confirmOpenings', () => {
  const group = (fingerprint: string): IssueGroup => ({ fingerprint, suite: 'dask', lastGoodNight: '2026-11-01', firstBadNight: '2026-11-02', ranges: [], series: [] });
  const issue: TrackedIssue = { fingerprint: 'c', number: 3, ref: 'acme/perf#3', state: 'open', closedByNightbench: false, reportedNights: [], notedImprovements: [] };

  it('confirms openings only: reproduced opens with its figures, the rest is unconfirmed, comments are left alone', async () => {
    const asked: string[] = [];
    const actions: IssueAction[] = [{ kind: 'open', group: group('a') }, { kind: 'open', group: group('b') }, { kind: 'comment', group: group('c'), issue }];
    const confirmed = await confirmOpenings(
      actions,
      async (g) => {
        asked.push(g.fingerprint);
        return confirmOnSimulated({ step: g.fingerprint === 'a' ? 0.3 : 0, cv: 0.05, ratio: 1.3, seed: 11 });
      },
      silentLog,
    );
    expect(asked).toEqual(['a', 'b']);
    expect(confirmed.map((a) => a.kind)).toEqual(['open', 'unconfirmed', 'comment']);
    expect(confirmed[0]!.group.confirmation).toMatchObject({ reproduced: true, repeats: 12 });
    expect(confirmed[2]).toBe(actions[2]);
  });

  it('files an opening whose rerun failed as detected, saying why: a failed rerun proves nothing', async () => {
    const confirmed = await confirmOpenings([{ kind: 'open', group: group('a') }], () => Promise.reject(new Error('cluster did not start\nmore')), silentLog);
    expect(confirmed).toEqual([{ kind: 'open', group: { ...group('a'), confirmationError: 'cluster did not start' } }]);
    expect(renderIssue(confirmed[0]!.group, renderContext).body).toContain('Not confirmed before filing: the rerun of last good against first bad failed (cluster did not start)');
  });
});
