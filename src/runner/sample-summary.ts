import type { ProcessSamples } from '../history/types.js';

export interface ClusterUsage {
  /** Highest cluster-wide RSS (sum over processes at one tick), bytes. */
  peakMemory: number;
  /** Mean cluster-wide RSS over the ticks, bytes. */
  averageMemory: number;
  /** CPU seconds all cluster processes used between the first and last tick. */
  cpuSeconds: number;
}

/** Cluster-wide figures from per-process samples taken on the same ticks. */
export function summarizeUsage(processes: readonly ProcessSamples[]): ClusterUsage {
  const ticks = Math.max(0, ...processes.map((p) => p.rss.length));
  if (ticks === 0) return { peakMemory: 0, averageMemory: 0, cpuSeconds: 0 };
  let peak = 0;
  let total = 0;
  for (let i = 0; i < ticks; i++) {
    let sum = 0;
    for (const p of processes) sum += p.rss[i] ?? 0;
    peak = Math.max(peak, sum);
    total += sum;
  }
  let cpu = 0;
  for (const p of processes) {
    // A process that appeared mid-repeat has zeros before it, so all of its CPU counts.
    cpu += (p.cpu.at(-1) ?? 0) - (p.cpu[0] ?? 0);
  }
  return { peakMemory: peak, averageMemory: total / ticks, cpuSeconds: Math.max(0, cpu) };
}
