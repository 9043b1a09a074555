/**
 * The sharded nightly, step by step, in the order the nightly workflow runs them (one CLI step
 * each; `nightbench <command>` in brackets):
 *
 * - plan job: {@link fetchHistory} (`history fetch`), then {@link planNightShards} (`shard plan`);
 * - each shard job: {@link runNight} with its shard (`nightly --no-detect --shard i/N`), then
 *   {@link summarizeNight} of its own database (`summary --no-detect`);
 * - history job: {@link fetchHistory}, {@link recoverShards} (`shard recover`: the shards of
 *   earlier runs whose save failed), {@link mergeShards} (`db merge`), {@link detectNight}
 *   (`detect`), {@link publishNightIssues} (`issues`), {@link saveHistory} (`history save`) and
 *   {@link summarizeNight} (`summary --expect-shards N`).
 *
 * On one machine, {@link runNight} without a shard records, detects and publishes in one go.
 * Every step opens and closes what it needs, so each runs alone in its own job as well as one
 * after another in one process; the commands only parse flags and print what a step returns.
 *
 * @module
 */
import { firstLine, storeError } from '../errors.js';
import { detectRegressions, type DetectionReport } from '../detect/run.js';
import { describeJudgedNight } from '../detect/table.js';
import { mergeShardFiles, requireHistoryFile } from '../history/files.js';
import type { MergeCounts } from '../history/merge-queries.js';
import { prepareExecution } from '../runner/execute.js';
import { shardSelection } from '../shard/plan-file.js';
import { openConfiguredHistory, type NightContext } from './context.js';
import { detectAndPublish, type DetectAndPublishOptions, type NightIssues } from './issues.js';
import { nightlyPorts, runNightly, type NightlyOutcome } from './run-nightly.js';

export { fetchHistory, saveHistory } from '../history-sync/transfer.js';
export { planNightShards } from './plan-shards.js';
export { recoverShards } from './recover-shards.js';
export { summarizeNight } from './summarize-night.js';

export interface NightRunRequest {
  /** The night the runs count for (YYYY-MM-DD); default: today, UTC. */
  night?: string;
  /** Test this commit of the target's primary repository instead of its tip. */
  commit?: string;
  /** Run only shard `spec` (i/N) of the plan in `planFile` (a workflow's matrix job). */
  shard?: { spec: string; planFile?: string };
  /** False: record only. */
  detect: boolean;
  signal?: AbortSignal;
}

/** Records the night (or one shard of it) into the local history; then, unless told not to, detection and issues. */
export async function runNight(context: NightContext, request: NightRunRequest): Promise<NightlyOutcome> {
  const shard = request.shard ? shardSelection(request.shard.spec, request.shard.planFile) : {};
  // Every input error (an unknown workload, a missing commit) surfaces before the history is created.
  const prepared = await prepareExecution(context.loaded, context.log, { commit: request.commit, night: request.night ?? 'now', ...shard });
  const store = openConfiguredHistory(context);
  try {
    const ports = nightlyPorts(context.loaded, store, context.log, { night: request.night, commit: request.commit, signal: request.signal, prepared, ...shard });
    return await runNightly(ports, { detect: request.detect });
  } finally {
    store.close();
  }
}

export interface ShardMerge {
  /** What each readable shard added, in the order given. */
  merged: MergeCounts[];
  /** Shards that could not be read (corrupt, missing): skipped, the others merged. */
  unreadable: { shard: string; error: string }[];
}

/**
 * Merges the shards' databases into the local history; merging twice adds nothing. An unreadable
 * shard is skipped with a warning; none readable is a store error. `shards` are named as given
 * and resolved against the config's folder.
 */
export function mergeShards(context: NightContext, shards: readonly string[]): ShardMerge {
  const unreadable: ShardMerge['unreadable'] = [];
  const merged = mergeShardFiles(
    context.historyPath,
    shards.map((shard) => context.resolve(shard)),
    (counts, index) => context.log.info(`merged ${shards[index]}: ${Object.entries(counts.added).map(([t, n]) => `${n} ${t}`).join(', ')}`),
    (error, index) => {
      unreadable.push({ shard: shards[index]!, error: firstLine(error) });
      context.log.warn(`skipped ${shards[index]}: ${firstLine(error)}; the other shards are merged`);
    },
  );
  if (merged.length === 0) throw storeError(`no shard could be merged: ${unreadable.map((u) => `${u.shard}: ${u.error}`).join('; ')}`);
  return { merged, unreadable };
}

/** Judges a night of every series against its history and updates the regression episodes (with `dryRun`, stores nothing). */
export function detectNight(context: NightContext, options: { night?: string; suite?: string; dryRun?: boolean }): DetectionReport {
  requireHistoryFile(context.historyPath, 'detect');
  const store = openConfiguredHistory(context);
  try {
    const report = detectRegressions(store, context.loaded.config.detection, { now: options.night, suite: options.suite, dryRun: options.dryRun });
    context.log.info(describeJudgedNight(report));
    return report;
  } finally {
    store.close();
  }
}

/** Opens, updates and closes the night's regression and broken-workload issues (on GitHub with a token, else as files). */
export async function publishNightIssues(context: NightContext, options: DetectAndPublishOptions): Promise<NightIssues> {
  requireHistoryFile(context.historyPath, 'issues');
  const store = openConfiguredHistory(context);
  try {
    return await detectAndPublish(context.loaded, store, context.log, options);
  } finally {
    store.close();
  }
}
