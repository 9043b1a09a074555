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
 * The drill-down of `workload` in `run`, as the UTF-8 bytes of the JSON of a `DrilldownPage`. Each
 * repeat's processes' timelines are already the bytes of their JSON (the history stores them so,
 * sample-timelines.ts) and are spliced in as they are: parsing them only to write them again cost
 * 0.7 s of a night's 5,000 drill-downs at 5,000 workloads, and decoding them into strings and
 * encoding them again about half a second more. The bytes are those of `JSON.stringify` of the page.
 */
export function buildDrilldown(run: ReportRun, workload: string, repeats: RepeatFacts[], commits: CommitRow[]): Buffer {
  const page: DrilldownPage = {
    suite: run.suite, workload, runId: run.id, night: run.night, variant: variantOf(run), commits,
    ...(run.machine === undefined || run.machineClass === undefined ? {} : { machine: describeMachine(run.machine, run.machineClass) }),
    repeats: [],
  };
  const repeatsArray: Uint8Array[] = [bytesOf.openBracket];
  [...repeats].sort((a, b) => a.repeat - b.repeat).forEach((r, i) => {
    if (i > 0) repeatsArray.push(bytesOf.comma);
    const repeat: DrilldownRepeat = { repeat: r.repeat, status: r.status, error: r.error ?? undefined, metrics: r.metrics.map((m) => ({ ...m, value: compact(m.value) })), processes: [] };
    repeatsArray.push(...withLastArray(JSON.stringify(repeat), [r.timelines]));
  });
  repeatsArray.push(bytesOf.closeBracket);
  return Buffer.concat(withLastArray(JSON.stringify(page), repeatsArray));
}

const bytesOf = { openBracket: Buffer.from('['), closeBracket: Buffer.from(']'), comma: Buffer.from(','), closeBrace: Buffer.from('}') };

/** The bytes of `json`, an object whose last field is an empty array, with that field's value the bytes `array` instead. */
function withLastArray(json: string, array: readonly Uint8Array[]): Uint8Array[] {
  return [Buffer.from(json.slice(0, -'[]}'.length)), ...array, bytesOf.closeBrace];
}
