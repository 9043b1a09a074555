import { describe, expect, it } from 'vitest';
import type { Episode } from '../../src/detect/episodes.js';
import type { MachineNight } from '../../src/detect/machine-night.js';
import { holdOpenings } from '../../src/issues/machine-hold.js';
import type { IssueAction } from '../../src/issues/plan.js';
import { group, series, tracked } from './builders.js';

const machine: MachineNight = { night: '2026-12-03', suite: '', machine: true, signs: ['common-mode'], direction: 'slower', judgedSeries: 8, movedSeries: 7, reason: '7 of 8 timed series moved slower together' };
const opening = (state: 'open' | 'still-regressed' = 'open'): IssueAction => ({ kind: 'open', group: group([series('shuffle', state)]) });
/** The stored episode behind `series('shuffle')` (id 7), `nightsBack` nights back within noise. */
const episode = (nightsBack: number) => ({ id: 7, nightsBack, state: 'still-regressed' }) as Episode;

describe('holdOpenings', () => {
  it('holds every opening of a machine night, and only openings', () => {
    const comment: IssueAction = { kind: 'comment', group: group([series('join', 'still-regressed')]), issue: tracked(group([series('join')])) };
    const held = holdOpenings([opening(), comment], { night: '2026-12-03', machine, machineNights: new Set(['2026-12-03']), episodes: [], rerunConfirms: false });
    expect(held[0]).toMatchObject({ kind: 'skip', reason: 'waiting: 2026-12-03 was a machine night (7 of 8 timed series moved slower together); filed when a later night proves it' });
    expect(held[1]).toBe(comment);
  });

  it('leaves a machine night\'s openings to the confirming rerun when there is one', () => {
    expect(holdOpenings([opening()], { night: '2026-12-03', machine, machineNights: new Set(['2026-12-03']), episodes: [], rerunConfirms: true })[0]!.kind).toBe('open');
  });

  it('on the next night files a shift that night proves, and keeps waiting on one back within noise', () => {
    const next = { night: '2026-12-04', machine: { ...machine, night: '2026-12-04', machine: false }, machineNights: new Set(['2026-12-03']), rerunConfirms: false, provenTonight: new Set([7, 3]) };
    expect(holdOpenings([opening('still-regressed')], { ...next, episodes: [episode(0)] })[0]!.kind).toBe('open');
    // Not back, but not proven by tonight either (the load's aftermath looks the same): it waits, at most three nights.
    const unproven = { ...next, provenTonight: new Set<number>() };
    expect(holdOpenings([opening('still-regressed')], { ...unproven, episodes: [episode(0)] })[0]).toMatchObject({
      kind: 'skip', reason: 'waiting: began on machine night 2026-12-03, not back tonight but not beyond its noise either; filed when a night proves it, or 3 nights on',
    });
    expect(holdOpenings([opening('still-regressed')], { ...unproven, night: '2026-12-05', episodes: [episode(0)] })[0]!.kind).toBe('skip');
    expect(holdOpenings([opening('still-regressed')], { ...unproven, night: '2026-12-06', episodes: [episode(0)] })[0]!.kind).toBe('open');
    expect(holdOpenings([opening('still-regressed')], { ...next, episodes: [episode(1)] })[0]).toMatchObject({ kind: 'skip', reason: 'waiting: began on machine night 2026-12-03 and is back within noise of its old level tonight' });
    // Only what outlasted the load is filed: a series back tonight leaves the group.
    const mixed: IssueAction = { kind: 'open', group: group([series('shuffle', 'still-regressed'), series('sum', 'still-regressed')]) };
    const filed = holdOpenings([mixed], { ...next, episodes: [episode(1), { id: 3, nightsBack: 0, state: 'still-regressed' } as Episode] })[0]!;
    expect(filed.kind === 'open' && filed.group.series.map((s) => s.workload)).toEqual(['sum']);
    // Nor does a later comment list them, or claim their episodes for its issue.
    const comment: IssueAction = { kind: 'comment', group: mixed.group, issue: tracked(mixed.group) };
    const commented = holdOpenings([comment], { ...next, night: '2026-12-05', episodes: [{ ...episode(2), state: 'recovered' }, { id: 3, nightsBack: 0, state: 'still-regressed', issueNumber: 7 } as Episode] })[0]!;
    expect(commented).toMatchObject({ kind: 'comment', issue: { number: 7 } });
    expect(commented.group.series.map((s) => s.workload)).toEqual(['sum']);
    // A group that did not begin on a machine night is filed as before, back or not.
    expect(holdOpenings([opening('still-regressed')], { ...next, machineNights: new Set(), episodes: [episode(1)] })[0]!.kind).toBe('open');
  });

  it('holds a suite-wide night\'s opening three nights, then files what stayed and nothing for a blip that came back', () => {
    const wide = { machine: { ...machine, machine: false, signs: [] }, machineNights: new Set<string>(), suiteWideNights: new Set(['2026-12-03']), rerunConfirms: false };
    expect(holdOpenings([opening()], { ...wide, night: '2026-12-03', episodes: [episode(0)] })[0]).toMatchObject({ kind: 'skip', reason: 'waiting: many series moved together on 2026-12-03; filed if still shifted 3 nights later' });
    expect(holdOpenings([opening('still-regressed')], { ...wide, night: '2026-12-05', episodes: [episode(0)] })[0]!.kind).toBe('skip');
    expect(holdOpenings([opening('still-regressed')], { ...wide, night: '2026-12-06', episodes: [episode(0)] })[0]!.kind).toBe('open');
    expect(holdOpenings([opening('still-regressed')], { ...wide, night: '2026-12-06', episodes: [episode(2)] })[0]).toMatchObject({ kind: 'skip', reason: 'waiting: began on suite-wide night 2026-12-03 and is back within noise of its old level tonight' });
    // A confirming rerun does not shorten the wait: it would rerun the code, and the code may be what moved.
    expect(holdOpenings([opening()], { ...wide, rerunConfirms: true, night: '2026-12-03', episodes: [] })[0]!.kind).toBe('skip');
  });
});

describe('holdOpenings after a change of machine class', () => {
  const fast = 'AMD EPYC 7763, 4 cores, 16GiB';
  const slow = 'Intel Xeon 8272CL, 4 cores, 16GiB';
  const quiet = { machineNights: new Set<string>(), rerunConfirms: false };
  /** The opening of `shuffle` (episode 7), which began on the slow class after a baseline on the fast one; `tonight` is the class it ran on tonight. */
  const changed = (tonight: string, state: 'open' | 'still-regressed' = 'still-regressed', change = 0.3): IssueAction => ({
    kind: 'open', group: group([series('shuffle', state, { change, machineChange: { from: fast, to: slow }, tonight: { machineClass: tonight, threshold: 0.1 } })]),
  });

  it('waits on the night it opened and on later nights on another class, saying for what', () => {
    const held = holdOpenings([changed(slow, 'open')], { night: '2026-12-03', ...quiet, episodes: [episode(0)] })[0]!;
    expect(held).toMatchObject({ kind: 'skip', reason: `waiting: began on a machine change (${fast} before, ${slow} since); filed when a night on ${fast}, or a rerun, still shows it` });
    expect(holdOpenings([changed('a third CPU, 4 cores, 16GiB')], { night: '2026-12-04', ...quiet, episodes: [episode(0)] })[0]!.kind).toBe('skip');
  });

  it('files once a night on the baseline\'s class still shows it beyond the threshold, and keeps waiting when that night is back within noise or threshold', () => {
    expect(holdOpenings([changed(fast)], { night: '2026-12-05', ...quiet, episodes: [episode(0)] })[0]!.kind).toBe('open');
    expect(holdOpenings([changed(fast, 'still-regressed', 0.06)], { night: '2026-12-05', ...quiet, episodes: [episode(0)] })[0]!.kind).toBe('skip');
    expect(holdOpenings([changed(fast)], { night: '2026-12-05', ...quiet, episodes: [episode(1)] })[0]).toMatchObject({
      kind: 'skip', reason: `waiting: began on a machine change and is back within noise of its old level on ${fast} tonight`,
    });
  });

  it('files with a series that opened like for like, and leaves the decision to a confirming rerun when there is one', () => {
    const mixed: IssueAction = { kind: 'open', group: group([changed(slow).group.series[0]!, series('sum', 'open')]) };
    expect(holdOpenings([mixed], { night: '2026-12-03', ...quiet, episodes: [] })[0]!.kind).toBe('open');
    expect(holdOpenings([changed(slow, 'open')], { night: '2026-12-03', ...quiet, rerunConfirms: true, episodes: [] })[0]!.kind).toBe('open');
  });
});
