/**
 * The text form of a tune plan, as `nightbench tune` prints it. Pure: plan in, text out.
 *
 * @module
 */
import { formatPercent, formatSeconds } from '../format/index.js';
import { alignColumns } from '../detect/table.js';
import type { TunePlan, TunedWorkload } from './plan.js';

/** One line per workload (repeats now and planned, its cost a night), then the suite's totals. */
export function renderTunePlan(plan: TunePlan): string {
  const within = plan.nights === 1 ? 'on its first night' : `within ${plan.nights} nights`;
  const lines = [`night ${plan.night}: repeats a night at which every series of a workload catches a ${formatPercent(plan.target)} change ${within}`];
  if (plan.workloads.length === 0) {
    const reach = plan.reachKnownFrom === undefined ? '' : `, what a series catches being known from its ${plan.reachKnownFrom}th night there`;
    const why = plan.unjudgedSeries > 0 ? ` (${plan.unjudgedSeries} series without one: too new at their level${reach}, or no usable value tonight)` : '';
    return `${lines[0]}\nno series of this night has a known sensitivity${why}: nothing to tune`;
  }
  const header = ['workload', 'repeats', 'one repeat', 'cluster time a night', 'cannot reach the target'];
  const rows = plan.workloads.map((w) => [
    `${w.suite}/${w.workload}`,
    w.repeats === undefined ? `${w.currentRepeats} (keep)` : `${w.currentRepeats} -> ${w.repeats}`,
    w.secondsPerRepeat === undefined ? '-' : formatSeconds(w.secondsPerRepeat),
    costChange(w),
    unreachableText(w),
  ]);
  lines.push(...alignColumns([header, ...rows]).map((line) => line.trimEnd()));
  lines.push(`total cluster time a night: ${formatSeconds(plan.currentClusterSeconds)} now, ${formatSeconds(plan.clusterSeconds)} with each workload at its own repeats`);
  if (plan.suiteRepeats !== undefined) lines.push(`one setting for the whole suite ("repeats": ${plan.suiteRepeats}, enough for every workload that can reach the target): ${formatSeconds(plan.suiteClusterSeconds!)} a night`);
  const untimed = plan.workloads.filter((w) => w.secondsPerRepeat === undefined).map((w) => `${w.suite}/${w.workload}`);
  if (untimed.length > 0) lines.push(`no recorded wall time (left out of the totals): ${untimed.join(', ')}`);
  return lines.join('\n');
}

function costChange(w: TunedWorkload): string {
  if (w.currentClusterSeconds === undefined) return '-';
  return w.clusterSeconds === undefined ? formatSeconds(w.currentClusterSeconds) : `${formatSeconds(w.currentClusterSeconds)} -> ${formatSeconds(w.clusterSeconds)}`;
}

/** The metrics no repeats bring to the target, and why when it is their threshold. */
function unreachableText(w: TunedWorkload): string {
  if (w.unreachable.length === 0) return '';
  const byThreshold = new Set(w.series.filter((s) => s.thresholdAboveTarget).map((s) => s.metric));
  return w.unreachable.map((metric) => (byThreshold.has(metric) ? `${metric} (threshold above the target)` : metric)).join(', ');
}

