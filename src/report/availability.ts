/**
 * Where a workload's history begins because earlier versions of the target could not run it (an
 * import they lack): "not available before <commits>". Pure.
 *
 * @module
 */
import { shortSha } from '../format/index.js';
import type { ReportRun, UnsupportedWorkload } from './types.js';

/**
 * One note per (suite, workload) that some nightly run recorded as unsupported, keyed
 * "suite\0workload": the commits of the first run after its last unsupported night that measured
 * it (`measured`), or, when none has, the last night it could not run.
 */
export function availabilityNotes(runs: readonly ReportRun[], unsupported: readonly UnsupportedWorkload[], measured: (runId: string, workload: string) => boolean): Map<string, string> {
  const byId = new Map(runs.map((run) => [run.id, run]));
  const lastUnsupported = new Map<string, { night: string; reason: string }>();
  for (const u of unsupported) {
    const run = byId.get(u.runId);
    if (!run) continue;
    const key = `${run.suite}\u0000${u.workload}`;
    const seen = lastUnsupported.get(key);
    if (!seen || seen.night <= run.night) lastUnsupported.set(key, { night: run.night, reason: u.reason });
  }
  const notes = new Map<string, string>();
  for (const [key, last] of lastUnsupported) {
    const [suite, workload] = key.split('\u0000') as [string, string];
    // runs are oldest first: the first later run that measured the workload is where it begins.
    const first = runs.find((run) => run.suite === suite && run.night > last.night && measured(run.id, workload));
    notes.set(
      key,
      first
        ? `not available before ${first.commits.map((c) => `${c.repo}@${shortSha(c.sha)}`).join(', ') || first.night} (${first.night}): earlier versions of the target cannot run it (${last.reason})`
        : `not available up to ${last.night}: this version of the target cannot run it (${last.reason})`,
    );
  }
  return notes;
}
