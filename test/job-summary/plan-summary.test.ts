import { describe, expect, it } from 'vitest';
import { planOutputs, renderShardPlan } from '../../src/job-summary/plan-summary.js';
import { planShards } from '../../src/shard/plan.js';

const plan = planShards(
  [
    { suite: 'dask', name: 'shuffle', seconds: 300, known: true },
    { suite: 'dask', name: 'sum', seconds: 90, known: true },
    { suite: 'dask', name: 'new<b>', seconds: 190, known: false },
  ],
  2,
);

describe('shard plan summary', () => {
  it('lists each shard with its estimate and workloads', () => {
    expect(renderShardPlan(plan)).toBe(
      [
        '## nightbench: 2 shards',
        '',
        'Balanced by median wall time over recent nights, longest first; 1 workload never timed got the default.',
        '',
        '| shard | estimated minutes | workloads |',
        '|---|--:|---|',
        '| 1/2 | 5.0 | dask/shuffle |',
        '| 2/2 | 4.7 | dask/new&lt;b&gt; (untimed), dask/sum |',
        '',
      ].join('\n'),
    );
  });

  it('gives the matrix and the shard count as step outputs', () => {
    expect(planOutputs(plan)).toEqual({
      matrix: JSON.stringify({ include: [{ shard: '1/2', index: 1, workloads: 'shuffle', seconds: 300 }, { shard: '2/2', index: 2, workloads: 'new<b>,sum', seconds: 280 }] }),
      shards: '2',
    });
  });
});
