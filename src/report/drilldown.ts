/**
 * One run of one workload, "what happened inside": per-process memory and CPU over time (the
 * timelines the history cut from the samples as it recorded them), and the workload's own metrics,
 * per repeat. Pure.
 *
 * @module
 */
import type { RepeatFacts } from '../history/report-rows.js';
import { describeMachine } from '../detect/machine-class.js';
import { compact } from './format.js';
import { variantOf } from './paths.js';
import type { CommitRow, DrilldownPage, DrilldownRepeat, ReportRun } from './types.js';

/**
 * The drill-down of `workload` in `run`, as the JSON of a `DrilldownPage`. Each repeat's
 * processes' timelines are already JSON (the history stores them so, sample-timelines.ts) and
 * are spliced in as text: parsing them only to write them again cost 0.7 s of a night's 5,000
 * drill-downs at 5,000 workloads. The text is what `JSON.stringify` of the page would be.
 */
export function buildDrilldown(run: ReportRun, workload: string, repeats: RepeatFacts[], commits: CommitRow[]): string {
  const page: DrilldownPage = {
    suite: run.suite, workload, runId: run.id, night: run.night, variant: variantOf(run), commits,
    ...(run.machine === undefined || run.machineClass === undefined ? {} : { machine: describeMachine(run.machine, run.machineClass) }),
    repeats: [],
  };
  const repeatsJson = [...repeats].sort((a, b) => a.repeat - b.repeat).map((r) => {
    const repeat: DrilldownRepeat = { repeat: r.repeat, status: r.status, error: r.error ?? undefined, metrics: r.metrics.map((m) => ({ ...m, value: compact(m.value) })), processes: [] };
    return withLastArray(JSON.stringify(repeat), r.timelines);
  });
  return withLastArray(JSON.stringify(page), `[${repeatsJson.join(',')}]`);
}

/** `json` of an object whose last field is an empty array, with that field's value `arrayJson` instead. */
function withLastArray(json: string, arrayJson: string): string {
  return `${json.slice(0, -'[]}'.length)}${arrayJson}}`;
}
