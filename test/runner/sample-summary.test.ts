import { describe, expect, it } from 'vitest';
import { summarizeUsage } from '../../src/runner/sample-summary.js';

describe('summarizeUsage', () => {
  it('sums RSS across processes per tick for peak and average, and takes CPU deltas', () => {
    const usage = summarizeUsage([
      { process: 'scheduler', host: 'h', t: [0, 1, 2], rss: [100, 100, 100], cpu: [5, 5.5, 6] },
      { process: 'worker-1', host: 'h', t: [0, 1, 2], rss: [200, 500, 300], cpu: [1, 3, 4] },
    ]);
    expect(usage).toEqual({ peakMemory: 600, averageMemory: (300 + 600 + 400) / 3, cpuSeconds: 1 + 3 });
  });

  it('counts all CPU of a process that appeared mid-repeat', () => {
    expect(summarizeUsage([{ process: 'worker-1', host: 'h', t: [0, 1], rss: [0, 10], cpu: [0, 2] }]).cpuSeconds).toBe(2);
  });

  it('is zero without samples', () => {
    expect(summarizeUsage([])).toEqual({ peakMemory: 0, averageMemory: 0, cpuSeconds: 0 });
  });
});
