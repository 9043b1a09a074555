import { describe, expect, it } from 'vitest';
import { runsThatMayNotHaveSaved, shardArtifacts, type WorkflowRunSummary } from '../../src/shard/recover-plan.js';

const run = (id: number, conclusion: string | null, createdAt: string, status = 'completed'): WorkflowRunSummary => ({ id, status, conclusion, created_at: createdAt });

describe('runsThatMayNotHaveSaved', () => {
  it('keeps finished runs other than this one, since the window opened, that did not succeed, oldest first', () => {
    const runs = [
      run(9, null, '2026-12-07T02:17:00Z', 'in_progress'), // this run
      run(8, 'failure', '2026-12-06T02:17:00Z'),
      run(7, 'success', '2026-12-05T02:17:00Z'),
      run(6, 'cancelled', '2026-12-04T02:17:00Z'),
      run(5, 'timed_out', '2026-12-03T02:17:00Z'),
      run(4, null, '2026-12-02T02:17:00Z', 'in_progress'), // still going: its own history job saves it
      run(3, 'failure', '2026-11-20T02:17:00Z'), // before the window
    ];
    expect(runsThatMayNotHaveSaved(runs, { currentRunId: 9, since: new Date('2026-11-23T00:00:00Z') }).map((r) => r.id)).toEqual([5, 6, 8]);
  });

  it('leaves this run out even when it is listed as finished (a re-run of a failed run)', () => {
    expect(runsThatMayNotHaveSaved([run(8, 'failure', '2026-12-06T02:17:00Z')], { currentRunId: 8, since: new Date('2026-12-01T00:00:00Z') })).toEqual([]);
  });
});

describe('shardArtifacts', () => {
  it("takes the shards' artifacts, telling the expired apart, and nothing else", () => {
    const artifacts = [
      { id: 1, name: 'shard-0', expired: false, size_in_bytes: 10 },
      { id: 2, name: 'shard-1', expired: true, size_in_bytes: 10 },
      { id: 3, name: 'shard-plan', expired: false, size_in_bytes: 10 },
      { id: 4, name: 'github-pages', expired: false, size_in_bytes: 10 },
    ];
    const { available, expired } = shardArtifacts(artifacts);
    expect(available.map((a) => a.id)).toEqual([1]);
    expect(expired.map((a) => a.id)).toEqual([2]);
  });
});
