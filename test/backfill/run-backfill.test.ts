import { describe, expect, it } from 'vitest';
import { nightsOfRange, planBackfill } from '../../src/backfill/plan.js';
import { runBackfill, type BackfillPorts } from '../../src/backfill/run-backfill.js';
import type { RunReport } from '../../src/runner/execute.js';

/** Ports that record nights in memory; `stopAfter` nights in, the user presses Ctrl-C. */
function fakePorts(options: { stopAfter?: number; failing?: string[]; opens?: Record<string, number[]> } = {}) {
  const calls: string[] = [];
  const messages: string[] = [];
  let clock = 0;
  let recorded = 0;
  const ports: BackfillPorts = {
    async recordNight(night) {
      calls.push(`record ${night}`);
      clock += 60_000;
      recorded++;
      const status = options.failing?.includes(night) ? 'failed' : 'complete';
      return [{ runId: `run-${night}`, suite: 'dask', night, status, repeats: { ok: 1, failed: 0, timeout: 0, disturbed: 0 }, clusterShape: 'local:2x1:2GiB' } satisfies RunReport];
    },
    commitsOf: async () => [{ repo: 'dask', sha: 'abcdef1234567890', parents: [], authorName: '', authorEmail: '', authoredAt: '', committedAt: '', subject: '' }],
    judgeNight: (night) => (calls.push(`judge ${night}`), options.opens?.[night] ?? []),
    markFoundInBackfill: (ids) => void (ids.length > 0 && calls.push(`mark ${ids.join(',')}`)),
    publishIssues: async (night) => void calls.push(`issues ${night}`),
    interrupted: () => options.stopAfter !== undefined && recorded >= options.stopAfter,
    now: () => clock,
    log: { info: (m) => messages.push(m), warn: (m) => messages.push(`warning: ${m}`), debug: () => {} },
  };
  return { ports, calls, messages };
}

const range = nightsOfRange('2022-12-01', '2022-12-04', 1);

describe('a backfill run', () => {
  it('records the nights oldest first, then judges every night of the range in order, and marks what judging opened', async () => {
    const { ports, calls, messages } = fakePorts({ opens: { '2022-12-03': [7] } });
    const plan = planBackfill(range, { recorded: new Set(['2022-12-02']), redo: false });
    const outcome = await runBackfill(ports, plan, { record: true, judge: true, issues: false });
    expect(calls).toEqual(['record 2022-12-01', 'record 2022-12-03', 'record 2022-12-04', 'judge 2022-12-01', 'judge 2022-12-02', 'judge 2022-12-03', 'mark 7', 'judge 2022-12-04']);
    expect(outcome).toMatchObject({ skipped: ['2022-12-02'], remaining: [], interrupted: false, episodesFound: [7] });
    expect(messages).toContain('backfill: night 2022-12-03 (2/3): dask abcdef1234, about 2 min left');
  });

  it('opens issues only with --issues, once, for the last night', async () => {
    const { ports, calls } = fakePorts();
    await runBackfill(ports, planBackfill(range, { recorded: new Set(), redo: false }), { record: true, judge: true, issues: true });
    expect(calls.filter((c) => c.startsWith('issues'))).toEqual(['issues 2022-12-04']);
  });

  it('stops when interrupted: the finished nights stay, the rest is left for the next start, nothing is judged', async () => {
    const { ports, calls, messages } = fakePorts({ stopAfter: 2 });
    const outcome = await runBackfill(ports, planBackfill(range, { recorded: new Set(), redo: false }), { record: true, judge: true, issues: true });
    // The second night was cut short by the interruption: not counted as recorded.
    expect(outcome).toMatchObject({ interrupted: true, remaining: ['2022-12-02', '2022-12-03', '2022-12-04'] });
    expect(outcome.recorded.map((r) => r.night)).toEqual(['2022-12-01']);
    expect(calls.some((c) => c.startsWith('judge'))).toBe(false);
    expect(messages.at(-1)).toMatch(/goes on from 2022-12-02/);
  });

  it('with --no-record judges the nights the history holds and names the missing ones', async () => {
    const { ports, calls } = fakePorts();
    const outcome = await runBackfill(ports, planBackfill(range, { recorded: new Set(['2022-12-01', '2022-12-02', '2022-12-04']), redo: false }), { record: false, judge: true, issues: false });
    expect(calls.filter((c) => c.startsWith('record'))).toEqual([]);
    expect(outcome).toMatchObject({ interrupted: false, remaining: ['2022-12-03'] });
    expect(outcome.judged).toHaveLength(4);
  });

  it('counts a night whose every run failed as failed, and goes on', async () => {
    const { ports } = fakePorts({ failing: ['2022-12-02'] });
    const outcome = await runBackfill(ports, planBackfill(range, { recorded: new Set(), redo: false }), { record: true, judge: false, issues: false });
    expect(outcome.failed).toEqual(['2022-12-02']);
    expect(outcome.recorded).toHaveLength(4);
    expect(outcome.judged).toEqual([]);
  });
});
