import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readShardPlan, shardSelection, writeShardPlan } from '../../src/shard/plan-file.js';
import { planShards } from '../../src/shard/plan.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('nightbench-plan-');

const plan = planShards(
  [
    { suite: 'dask', name: 'shuffle', seconds: 90, known: true },
    { suite: 'dask', name: 'sum', seconds: 30, known: true },
    { suite: 'dask', name: 'join', seconds: 40, known: false },
  ],
  2,
);

describe('shard plan file', () => {
  it('round-trips, and a shard job picks only its workloads', () => {
    const file = path.join(dir, 'plan.json');
    writeShardPlan(file, plan);
    expect(readShardPlan(file)).toEqual(plan);
    const { shard, pick } = shardSelection('2/2', file);
    expect(shard).toBe('2/2');
    expect(pick('dask', [{ name: 'sum' }, { name: 'shuffle' }, { name: 'join' }]).map((w) => w.name)).toEqual(['sum', 'join']);
  });

  it('refuses a plan of another shard count, a missing plan and a malformed one', () => {
    const file = path.join(dir, 'plan.json');
    writeShardPlan(file, plan);
    expect(() => shardSelection('1/3', file)).toThrow(/plans 2 shards, not 3/);
    expect(() => shardSelection('1/2', undefined)).toThrow(/--shard 1\/2 needs --shard-plan FILE/);
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ count: 2, shards: [{ index: 0 }] }));
    expect(() => readShardPlan(path.join(dir, 'bad.json'))).toThrow(/bad\.json: shards\.0\.index/);
  });

  it('names a plan file that is not there as bad input (exit 2), not as an internal error', () => {
    const file = path.join(dir, 'no-such-plan.json');
    expect(() => shardSelection('1/2', file)).toThrow(expect.objectContaining({ kind: 'config', message: `${file}: cannot be read: no such file` }));
  });
});
