/**
 * One run of one workload, "what happened inside": per-process memory and CPU over time from the
 * stored samples, and the workload's own metrics, per repeat. Pure.
 *
 * @module
 */
import type { RepeatFacts } from '../history/report-rows.js';
import type { ProcessSamples } from '../history/types.js';
import { describeMachine } from '../detect/machine-class.js';
import { compact, roundTo } from './format.js';
import { variantOf } from './paths.js';
import type { CommitRow, DrilldownPage, ProcessTimeline, ReportRun } from './types.js';

const mib = 2 ** 20;

/** The drill-down of `workload` in `run`; each process is cut to at most `maxPoints` points. */
export function buildDrilldown(run: ReportRun, workload: string, repeats: RepeatFacts[], commits: CommitRow[], maxPoints = 300): DrilldownPage {
  return {
    suite: run.suite, workload, runId: run.id, night: run.night, variant: variantOf(run), commits,
    ...(run.machine === undefined || run.machineClass === undefined ? {} : { machine: describeMachine(run.machine, run.machineClass) }),
    repeats: [...repeats].sort((a, b) => a.repeat - b.repeat).map((r) => ({
      repeat: r.repeat, status: r.status, error: r.error ?? undefined,
      metrics: r.metrics.map((m) => ({ ...m, value: compact(m.value) })),
      processes: r.samples.map((s) => timeline(s, maxPoints)).sort((a, b) => a.process.localeCompare(b.process, 'en', { numeric: true })),
    })),
  };
}

/**
 * Buckets of consecutive samples become one point: the highest RSS of the bucket (a memory spike
 * must survive the cut) and the mean CPU use over the bucket's span.
 */
export function timeline(samples: ProcessSamples, maxPoints: number): ProcessTimeline {
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
