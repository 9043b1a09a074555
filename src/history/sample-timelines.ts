/**
 * A process's samples cut to the timeline a drill-down charts. Cut once, when the repeat is
 * recorded (run-queries.ts stores a repeat's timelines as JSON beside its samples,
 * db/migrations/028): the site then copies a few KB of text per repeat instead of parsing and
 * cutting every sample of a night's runs each time it is built (131 MB of JSON a night at 5,000
 * workloads). Pure.
 *
 * @module
 */
import type { ProcessSamples } from './types.js';

/** One process's samples as the drill-down charts them. */
export interface ProcessTimeline {
  process: string;
  host: string;
  /** Seconds since the repeat started. */
  t: number[];
  rssMiB: number[];
  /** CPU use in cores (CPU seconds per second) over each sampling interval. */
  cpuCores: (number | null)[];
}

/** The most points a process's timeline keeps: more than a drill-down chart's width shows. */
const timelinePoints = 300;

const mib = 2 ** 20;

/** Rounds to a number of decimals: 0.01 s, 0.1 MiB and 0.01 cores are all a chart shows. */
const roundTo = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * Buckets of consecutive samples become one point: the highest RSS of the bucket (a memory spike
 * must survive the cut) and the mean CPU use over the bucket's span.
 */
export function timeline(samples: ProcessSamples, maxPoints = timelinePoints): ProcessTimeline {
  const n = Math.min(samples.t.length, samples.rss.length, samples.cpu.length);
  const size = Math.max(1, Math.ceil(n / maxPoints));
  const out: ProcessTimeline = { process: samples.process, host: samples.host, t: [], rssMiB: [], cpuCores: [] };
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size) - 1;
    let peak = 0;
    for (let i = start; i <= end; i++) peak = Math.max(peak, samples.rss[i]!);
    // CPU is cumulative: use over a bucket is the growth from the sample before it to its last one
    // (unknown for a first bucket of one sample).
    const from = Math.max(0, start - 1);
    const span = samples.t[end]! - samples.t[from]!;
    const used = samples.cpu[end]! - samples.cpu[from]!;
    out.t.push(roundTo(samples.t[start]!, 2));
    out.rssMiB.push(roundTo(peak / mib, 1));
    out.cpuCores.push(span > 0 ? roundTo(Math.max(0, used / span), 2) : null);
  }
  return out;
}

/**
 * A repeat's processes' timelines as stored, and as the site's drill-down files hold them: the
 * JSON of their array, in the drill-down's order (worker-2 before worker-10).
 */
export function encodeRepeatTimelines(samples: readonly ProcessSamples[]): string {
  return JSON.stringify(samples.map((s) => timeline(s)).sort((a, b) => a.process.localeCompare(b.process, 'en', { numeric: true })));
}
