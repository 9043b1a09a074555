import { describe, expect, it } from 'vitest';
import { encodeRepeatTimelines, timeline } from '../../src/history/sample-timelines.js';

const seconds = Array.from({ length: 1000 }, (_, i) => i * 0.25);

describe('timeline', () => {
  it('cuts a long sampling to at most the asked points, keeping the memory peak and the CPU rate', () => {
    const rss = seconds.map((_, i) => (i === 517 ? 900 * 2 ** 20 : 100 * 2 ** 20));
    const cpu = seconds.map((t) => 0.5 * t);
    const out = timeline({ process: 'worker-1', host: 'h', t: seconds, rss, cpu }, 300);
    expect(out.t.length).toBeLessThanOrEqual(300);
    expect(Math.max(...out.rssMiB)).toBe(900);
    expect(out.cpuCores.slice(1).every((c) => c === 0.5)).toBe(true);
    expect(out.t[0]).toBe(0);
  });

  it('keeps a short sampling as it is; the first CPU point is unknown', () => {
    const out = timeline({ process: 'scheduler', host: 'h', t: [0, 1, 2], rss: [2 ** 20, 2 * 2 ** 20, 3 * 2 ** 20], cpu: [0, 0.2, 0.6] }, 300);
    expect(out).toEqual({ process: 'scheduler', host: 'h', t: [0, 1, 2], rssMiB: [1, 2, 3], cpuCores: [null, 0.2, 0.4] });
  });
});

describe('encodeRepeatTimelines', () => {
  it('stores a repeat\'s timelines in the drill-down\'s order of processes (worker-10 after worker-2)', () => {
    const samples = (process: string) => ({ process, host: 'h', t: [0, 1], rss: [2 ** 20, 2 ** 21], cpu: [0, 1] });
    const stored = JSON.parse(encodeRepeatTimelines([samples('worker-10'), samples('worker-2'), samples('scheduler')])) as { process: string }[];
    expect(stored.map((p) => p.process)).toEqual(['scheduler', 'worker-2', 'worker-10']);
    expect(stored[0]).toEqual(timeline(samples('scheduler')));
  });
});
