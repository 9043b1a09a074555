/**
 * Detection of a night followed by its issues: what `nightbench issues` does, and the nightly
 * after recording. Judging a night again changes nothing stored, so this is safe to repeat.
 *
 * @module
 */
import { confirmationOf, episodeRequest, largestChange } from '../bisect/confirm.js';
import { runBisect } from '../bisect/run.js';
import type { LoadedConfig } from '../config/load.js';
import { detectRegressions } from '../detect/run.js';
import { describeJudgedNight } from '../detect/table.js';
import { NightbenchError } from '../errors.js';
import type { ConfirmPort } from '../issues/confirm.js';
import { describeAction } from '../issues/plan.js';
import { publishIssues, type PublishResult } from '../issues/publish.js';
import { publishBroken } from '../issues/publish-broken.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { formatCount } from '../format/index.js';

export interface DetectAndPublishOptions {
  /** Default: the latest nightly night in the history. */
  night?: string;
  suite?: string;
  /** Plan only: nothing stored, nothing published. */
  dryRun?: boolean;
  /** How a group is rerun before filing when `github.confirm` is `rerun` (default: on the cluster, {@link rerunOnCluster}). */
  confirm?: ConfirmPort;
}

/** The regressions' publishing, plus the broken-workload issues opened tonight (each is bisected like a regression). */
export type NightIssues = PublishResult & { brokenOpened: number[] };

export async function detectAndPublish(loaded: LoadedConfig, store: HistoryStore, log: Log, options: DetectAndPublishOptions = {}): Promise<NightIssues> {
  const report = detectRegressions(store, loaded.config.detection, { now: options.night, suite: options.suite, dryRun: options.dryRun });
  log.info(describeJudgedNight(report));
  const confirm = options.confirm ?? rerunOnCluster(loaded, store, log);
  const result = await publishIssues({ report, store, loaded, env: process.env, log, dryRun: options.dryRun, confirm });
  if (result.night === undefined || options.dryRun) return { ...result, brokenOpened: [] };
  // Broken workloads are issues too, after the regressions' (their trouble never holds those
  // back); GitHub refusing them fails the night as it does for regressions, their text in files.
  const broken = await publishBroken({ store, loaded, night: result.night, env: process.env, log });
  const error = result.error ?? broken.error;
  return { ...result, failed: result.failed + broken.failed, ...(error ? { error } : {}), brokenOpened: broken.opened };
}

/**
 * A group's confirmation as `bisect --mode rerun` does it: its largest change, last good against
 * first bad, interleaved on the episode's cluster shape, recorded as a bisect run. One series
 * stands for the group: its episodes share one suspect range, and the largest change is the
 * cheapest to reproduce.
 */
export function rerunOnCluster(loaded: LoadedConfig, store: HistoryStore, log: Log): ConfirmPort {
  return async (group) => {
    const ids = new Set(group.series.map((s) => s.episodeId));
    const episode = largestChange(store.episodes.episodes({ suite: group.suite }).filter((e) => ids.has(e.id)));
    log.info(`confirming ${group.suite} ${episode.identity.workload} ${episode.identity.metric} before filing: last good against first bad`);
    const report = await runBisect(loaded, store, log, episodeRequest(episode, 'rerun'));
    return confirmationOf(report.result, episode, report.clusterSeconds);
  };
}

/** The summary: one line per planned action, and where the failed ones went. */
export function describePublishResult(result: PublishResult, dryRun: boolean): string {
  const header = `${dryRun ? 'would publish' : 'published'} to ${result.tracker} for night ${result.night ?? '(none)'}: ${formatCount(result.actions.length, 'issue group')}`;
  const lines = (result.outcomes ?? result.actions.map((action) => ({ action, issue: undefined, fallback: undefined }))).map((outcome) => {
    const where = outcome.issue && outcome.action.kind === 'open' ? ` -> ${outcome.issue.ref}${outcome.issue.url ? ` ${outcome.issue.url}` : ''}` : '';
    return `  ${describeAction(outcome.action)}${where}${outcome.fallback ? ` (GitHub failed; written to ${outcome.fallback})` : ''}`;
  });
  return [header, ...lines].join('\n');
}

/** The one error a command reports when GitHub kept failing: the regressions and the text are kept. */
export function publishFailure(result: PublishResult): NightbenchError | undefined {
  if (result.failed === 0) return undefined;
  return new NightbenchError('github', `${formatCount(result.failed, 'issue action')} failed (${result.error}); the text is in ${result.filesDir} and the regressions stay recorded`);
}
