import { describe, expect, it } from 'vitest';
import type { BrokenWorkload, NightOutcome } from '../../src/detect/failures.js';
import { planBroken, renderBrokenComment, renderBrokenIssue, renderBrokenTitle } from '../../src/issues/broken.js';
import type { TrackedIssue } from '../../src/issues/tracker.js';

const outcome = (night: string, passed: boolean) => ({ suite: 's', workload: 'w', night, runId: night, commits: { dask: `sha-${night}` }, passed });
const broken = (state: 'failing' | 'fixed'): BrokenWorkload & { lastPassing: NightOutcome } => ({
  fingerprint: 'f1',
  suite: 's',
  workload: 'w',
  lastPassing: outcome('2026-11-01', true),
  firstFailing: { ...outcome('2026-11-02', false), error: 'boom' },
  latest: outcome('2026-11-03', state === 'fixed'),
  state,
});
const tracked = (state: 'open' | 'closed', reportedNights: string[] = ['2026-11-02']): TrackedIssue => ({ fingerprint: 'f1', number: 7, ref: 'acme/perf#7', state, closedByNightbench: false, reportedNights, notedImprovements: [] });

describe('planBroken', () => {
  it.each([
    ['opens a new failure', broken('failing'), [], 'open'],
    ['comments while it keeps failing', broken('failing'), [tracked('open')], 'comment'],
    ['closes when it passes again', broken('fixed'), [tracked('open')], 'close'],
    ['adds nothing to a night already reported', broken('failing'), [tracked('open', ['2026-11-03'])], 'skip'],
    ['leaves an issue a maintainer closed', broken('failing'), [tracked('closed')], 'skip'],
    ['opens nothing for a failure already fixed', broken('fixed'), [], 'skip'],
  ] as const)('%s', (_, b, existing, kind) => {
    expect(planBroken([b], existing, '2026-11-03')[0]!.kind).toBe(kind);
  });

  it('titles and comments name the workload, the night and the commits', () => {
    expect(renderBrokenTitle(broken('failing'))).toBe('Broken: w (s) fails since sha-202 (2026-11-02)');
    expect(renderBrokenComment(broken('fixed'), '2026-11-03')).toContain('Passes again on 2026-11-03 (dask@sha-202)');
  });

  it('says a workload failing from its first night has no range to search', () => {
    const { lastPassing: _, ...first } = broken('failing');
    expect(renderBrokenTitle(first)).toBe('Broken: w (s) fails from its first night (2026-11-02)');
    const body = renderBrokenIssue(first, { night: '2026-11-02', ranges: {}, people: { logins: {}, pulls: {} }, links: { commit: () => undefined, compare: () => undefined, pull: () => undefined, history: () => undefined }, mention: 'none', cli: 'nightbench' } as never);
    expect(body).toContain('**s w** fails from its first recorded night, 2026-11-02: there is no passing night to search from.');
    expect(body).toContain('boom');
    expect(body).not.toContain('## Bisect');
  });

  it("names every repository whose commit changed, in the target's order", () => {
    const both = broken('failing');
    both.lastPassing.commits = { distributed: 'dist-old', dask: 'dask-same' };
    both.firstFailing.commits = { distributed: 'dist-new', dask: 'dask-same' };
    expect(renderBrokenTitle(both, ['dask', 'distributed'])).toBe('Broken: w (s) fails since distributed dist-ne (2026-11-02)');
    both.firstFailing.commits = { distributed: 'dist-new', dask: 'dask-new' };
    expect(renderBrokenTitle(both, ['dask', 'distributed'])).toBe('Broken: w (s) fails since dask dask-ne, distributed dist-ne (2026-11-02)');
    expect(renderBrokenTitle(both, ['distributed', 'dask'])).toBe('Broken: w (s) fails since distributed dist-ne, dask dask-ne (2026-11-02)');
  });
});
