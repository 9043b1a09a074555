import { describe, expect, it } from 'vitest';
import { issueFingerprint } from '../../src/issues/group.js';
import { describeAction, planIssues } from '../../src/issues/plan.js';
import { badSha, goodSha, group, otherSha, series, tracked } from './builders.js';

describe('planIssues', () => {
  const opened = group([series('sum'), series('shuffle')]);
  const persisting = group([series('sum', 'still-regressed', { lastNight: '2026-12-04' }), series('shuffle', 'recovered')]);
  const unmeasured = group([series('sum', 'still-regressed'), series('shuffle', 'still-regressed')]);
  const retired = group([series('sum', 'retired'), series('shuffle', 'recovered')]);
  const recovered = group([series('sum', 'recovered'), series('shuffle', 'recovered')]);

  it.each([
    { what: 'a new regression opens one issue', g: opened, existing: [], night: '2026-12-03', kind: 'open' },
    { what: 'a rerun of the opening night adds nothing', g: opened, existing: [tracked(opened)], night: '2026-12-03', kind: 'skip', reason: '2026-12-03 already reported' },
    { what: 'a later night still regressed comments', g: persisting, existing: [tracked(persisting)], night: '2026-12-04', kind: 'comment' },
    { what: 'a rerun of a commented night adds nothing', g: persisting, existing: [tracked(persisting, { reportedNights: ['2026-12-03', '2026-12-04'] })], night: '2026-12-04', kind: 'skip' },
    { what: 'a night that measured none of its series says nothing', g: unmeasured, existing: [tracked(unmeasured)], night: '2026-12-05', kind: 'skip', reason: 'not measured on 2026-12-05' },
    { what: 'recovery of every series closes', g: recovered, existing: [tracked(recovered)], night: '2026-12-06', kind: 'close' },
    { what: 'series recovered or no longer measured close', g: retired, existing: [tracked(retired)], night: '2026-12-06', kind: 'close' },
    { what: 'series no longer measured without an issue do nothing', g: retired, existing: [], night: '2026-12-06', kind: 'skip', reason: 'no longer measured before an issue was opened' },
    { what: 'recovery without an issue does nothing', g: recovered, existing: [], night: '2026-12-06', kind: 'skip', reason: 'recovered before an issue was opened' },
    { what: 'a maintainer-closed issue is not reopened; the episodes are accepted', g: persisting, existing: [tracked(persisting, { state: 'closed' })], night: '2026-12-04', kind: 'accept' },
    { what: 'a maintainer-closed issue of accepted episodes stays quiet', g: group([series('sum', 'accepted')]), existing: [tracked(group([series('sum', 'accepted')]), { state: 'closed' })], night: '2026-12-05', kind: 'skip', reason: 'closed by a maintainer' },
    { what: 'an issue nightbench closed stays closed', g: persisting, existing: [tracked(persisting, { state: 'closed', closedByNightbench: true })], night: '2026-12-08', kind: 'skip', reason: 'closed by nightbench (recovered or no longer measured)' },
  ])('$what', ({ g, existing, night, kind, reason }) => {
    const [action, ...rest] = planIssues([g], existing, night);
    expect(rest).toEqual([]);
    expect(action?.kind).toBe(kind);
    if (reason) expect(action).toMatchObject({ reason });
  });

  it('keys issues by fingerprint: another range opens its own issue', () => {
    const other = group([series('sum')], [{ repo: 'pkg', from: badSha, to: otherSha }]);
    const actions = planIssues([persisting, other], [tracked(persisting)], '2026-12-04');
    expect(actions.map((a) => a.kind)).toEqual(['comment', 'open']);
  });

  it('describes each action on one line', () => {
    const [action] = planIssues([opened], [], '2026-12-03');
    expect(describeAction(action!)).toBe('open    new issue: tiny pkg@a1b2c3d..f00dfac (2 series)');
  });
});

describe('issueFingerprint', () => {
  it('depends on the suite and each repository range, not their order', () => {
    const a = { repo: 'dask', from: goodSha, to: badSha };
    const b = { repo: 'distributed', from: otherSha, to: otherSha };
    const night = '2026-12-03';
    expect(issueFingerprint('dask', [a, b], night)).toBe(issueFingerprint('dask', [b, a], night));
    expect(issueFingerprint('dask', [a, b], night)).toBe(issueFingerprint('dask', [a, b], '2026-12-04'));
    expect(issueFingerprint('dask', [a, b], night)).not.toBe(issueFingerprint('other', [a, b], night));
    expect(issueFingerprint('dask', [a, b], night)).not.toBe(issueFingerprint('dask', [a, { ...b, to: badSha }], night));
    expect(issueFingerprint('dask', [a], night)).toMatch(/^[0-9a-f]{16}$/);
  });
});
