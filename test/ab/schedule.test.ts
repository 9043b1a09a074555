import { describe, expect, it } from 'vitest';
import { abGroups, buildSchedule } from '../../src/ab/schedule.js';

const workloads = [
  { suite: 'dask', workload: 'sum' },
  { suite: 'dask', workload: 'shuffle' },
];

describe('abGroups', () => {
  it('labels the baseline A, its twin A\' and the candidates B, C', () => {
    expect(abGroups(['base', 'one', 'two'], true)).toEqual([
      { label: 'A', environment: 'base', role: 'baseline' },
      { label: "A'", environment: 'base', role: 'null' },
      { label: 'B', environment: 'one', role: 'candidate' },
      { label: 'C', environment: 'two', role: 'candidate' },
    ]);
    expect(abGroups(['base', 'one'], false).map((g) => g.label)).toEqual(['A', 'B']);
  });
});

describe('buildSchedule', () => {
  it('alternates the order of each round in blocks: A B | B A | A B', () => {
    const slots = buildSchedule(abGroups(['a', 'b'], false), workloads.slice(0, 1), { repeats: 4, blockSize: 1, order: 'blocks', seed: 1 });
    expect(slots.map((s) => `${s.group}${s.firstRepeat}`)).toEqual(['A1', 'B1', 'B2', 'A2', 'A3', 'B3', 'B4', 'A4']);
  });

  it('runs every workload in each round before the next round starts', () => {
    const slots = buildSchedule(abGroups(['a', 'b'], true), workloads, { repeats: 2, blockSize: 1, order: 'blocks', seed: 1 });
    expect(slots.map((s) => `${s.workload}:${s.group}`)).toEqual([
      'sum:A', "sum:A'", 'sum:B', 'shuffle:A', "shuffle:A'", 'shuffle:B',
      'sum:B', "sum:A'", 'sum:A', 'shuffle:B', "shuffle:A'", 'shuffle:A',
    ]);
  });

  it('gives every group exactly the repeats asked for, in blocks of blockSize with a short last block', () => {
    const slots = buildSchedule(abGroups(['a', 'b'], true), workloads, { repeats: 5, blockSize: 2, order: 'random', seed: 3 });
    for (const group of ['A', "A'", 'B']) {
      for (const { workload } of workloads) {
        const mine = slots.filter((s) => s.group === group && s.workload === workload);
        expect(mine.map((s) => [s.firstRepeat, s.count])).toEqual([[1, 2], [3, 2], [5, 1]]);
      }
    }
  });

  it('random order: the same seed gives the same order, another seed another, each round complete', () => {
    const groups = abGroups(['a', 'b', 'c'], true);
    const options = { repeats: 8, blockSize: 1, order: 'random' as const, seed: 42 };
    const first = buildSchedule(groups, workloads, options);
    expect(buildSchedule(groups, workloads, options)).toEqual(first);
    expect(buildSchedule(groups, workloads, { ...options, seed: 43 })).not.toEqual(first);
    for (let round = 0; round < 8; round++) {
      const slice = first.slice(round * 8, round * 8 + 4).map((s) => s.group);
      expect([...slice].sort()).toEqual(['A', "A'", 'B', 'C']);
    }
    // Not simply the blocks order: some round starts with another group than A or its reverse.
    expect(new Set(first.filter((_, i) => i % 4 === 0).map((s) => s.group)).size).toBeGreaterThan(2);
  });
});
