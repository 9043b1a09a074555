import { describe, expect, it } from 'vitest';
import { estimateWorkloads, parseShardSpec, planShards, selectShard, shardMatrix, type WorkloadEstimate } from '../../src/shard/plan.js';

const estimate = (name: string, seconds: number, suite = 'dask'): WorkloadEstimate => ({ suite, name, seconds, known: true });
const names = (plan: ReturnType<typeof planShards>) => plan.shards.map((s) => s.workloads.map((w) => w.name));

describe('planShards', () => {
  it('puts the longest workloads first, each on the least loaded shard', () => {
    const plan = planShards([estimate('a', 10), estimate('b', 70), estimate('c', 40), estimate('d', 30), estimate('e', 50)], 2);
    expect(names(plan)).toEqual([['b', 'd'], ['e', 'c', 'a']]);
    expect(plan.shards.map((s) => s.seconds)).toEqual([100, 100]);
  });

  it('breaks ties by name and lowest shard, so every job computes the same plan', () => {
    const input = [estimate('z', 5), estimate('y', 5), estimate('x', 5), estimate('w', 5)];
    expect(names(planShards(input, 3))).toEqual([['w', 'z'], ['x'], ['y']]);
    expect(planShards([...input].reverse(), 3)).toEqual(planShards(input, 3));
  });

  it('never makes empty shards: more shards than workloads gives one per workload', () => {
    const plan = planShards([estimate('a', 1), estimate('b', 2)], 5);
    expect(plan.count).toBe(2);
    expect(names(plan)).toEqual([['b'], ['a']]);
  });

  it('keeps the longest shard within 4/3 of the best possible', () => {
    // The classic worst case for LPT on 2 machines: 3,3,2,2,2 (best 6, LPT 7).
    const plan = planShards([3, 3, 2, 2, 2].map((s, i) => estimate(`w${i}`, s)), 2);
    expect(Math.max(...plan.shards.map((s) => s.seconds))).toBe(7);
  });

  it.each([0, -1, 1.5])('refuses %s shards', (n) => {
    expect(() => planShards([estimate('a', 1)], n)).toThrow(/--shards must be a whole number of at least 1/);
  });
});

describe('estimateWorkloads', () => {
  it('multiplies the median by the repeats, adds the overhead, and defaults untimed workloads', () => {
    const medians = new Map([['dask/shuffle', 20]]);
    expect(estimateWorkloads([{ suite: 'dask', name: 'shuffle' }, { suite: 'dask', name: 'new' }], medians, { repeats: 3, defaultSeconds: 60, overheadSeconds: 10 })).toEqual([
      { suite: 'dask', name: 'shuffle', seconds: 70, known: true },
      { suite: 'dask', name: 'new', seconds: 190, known: false },
    ]);
  });
});

describe('selectShard', () => {
  const plan = planShards([estimate('a', 30), estimate('b', 20), estimate('c', 10), estimate('a', 5, 'other')], 2);

  it('gives each shard its own workloads of a suite, in the order listed', () => {
    const listed = [{ name: 'c' }, { name: 'b' }, { name: 'a' }];
    expect(selectShard(listed, plan, 1, 'dask')).toEqual([{ name: 'a' }]);
    expect(selectShard(listed, plan, 2, 'dask')).toEqual([{ name: 'c' }, { name: 'b' }]);
    expect(selectShard([{ name: 'a' }], plan, 1, 'other')).toEqual([{ name: 'a' }]);
    expect(selectShard([{ name: 'a' }], plan, 2, 'other')).toEqual([]);
  });

  it('runs a workload the plan does not know in shard 1, so none is skipped', () => {
    expect(selectShard([{ name: 'brand_new' }], plan, 1, 'dask')).toEqual([{ name: 'brand_new' }]);
    expect(selectShard([{ name: 'brand_new' }], plan, 2, 'dask')).toEqual([]);
  });

  it('refuses a shard the plan does not have', () => {
    expect(() => selectShard([], plan, 3, 'dask')).toThrow('shard 3 is not in the plan, which has 2 shards');
  });
});

describe('parseShardSpec', () => {
  it('reads i/N', () => expect(parseShardSpec('2/3')).toEqual({ index: 2, count: 3 }));
  it.each(['0/3', '4/3', '1/0', '2', 'a/b', '1/2/3'])('refuses %s', (spec) => {
    expect(() => parseShardSpec(spec)).toThrow(/--shard must be i\/N/);
  });
});

describe('shardMatrix', () => {
  it('gives the workflow one matrix entry per shard', () => {
    expect(shardMatrix(planShards([estimate('a', 30.4), estimate('b', 20), estimate('c', 10)], 2))).toEqual({
      include: [
        { shard: '1/2', index: 1, workloads: 'a', seconds: 30 },
        { shard: '2/2', index: 2, workloads: 'b,c', seconds: 30 },
      ],
    });
  });
});
