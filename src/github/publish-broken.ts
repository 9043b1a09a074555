/**
 * Broken workloads as issues: found in the night's outcomes, planned against the issues that
 * carry their fingerprints, opened with the git context of their range, commented on while
 * failing, closed when passing. Beside the regressions' publishing, through the same tracker.
 *
 * @module
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { nightsBefore } from '../detect/compare.js';
import { findBroken, findBrokenByFingerprint, type BrokenWorkload } from '../detect/failures.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { brokenLabel, brokenRanges, describeBroken, planBroken, renderBrokenComment, renderBrokenIssue, renderBrokenTitle, type BrokenAction } from './broken.js';
import { fileTracker } from './file-tracker.js';
import { gitHubTracker, readIssueFingerprint } from './github-tracker.js';
import { configLinks } from './links.js';
import { noPeople } from './people.js';
import { gitContext, gitHubClientFor, repositoryOrder } from './publish.js';

/** How far back a workload's last pass is looked for. */
const lookbackDays = 60;

/** The night's broken-workload actions, and the numbers of the issues opened (for the nightly's bisect job). */
export interface BrokenResult {
  actions: BrokenAction[];
  opened: number[];
}

export async function publishBroken(options: { store: HistoryStore; loaded: LoadedConfig; night: string; env: Record<string, string | undefined>; log: Log; cli?: string }): Promise<BrokenResult> {
  const { store, loaded, night, log } = options;
  const { config } = loaded;
  const since = nightsBefore(night, lookbackDays);
  const broken = findBroken(store.nightOutcomes(since), night);
  if (broken.length === 0) return { actions: [], opened: [] };
  const client = gitHubClientFor(options);
  const tracker = client && config.github.repository ? gitHubTracker(client, config.github.repository, [brokenLabel]) : fileTracker(path.resolve(loaded.baseDir, config.reports.dir, 'issues'));
  const actions = planBroken(broken, await tracker.find(broken.map((b) => b.fingerprint)), night);
  const links = configLinks(config);
  const opened: number[] = [];
  for (const action of actions) {
    const b = action.broken;
    if (action.kind === 'open') {
      const context = { night, ranges: await gitContext(loaded, { ranges: brokenRanges(b) }, log), people: noPeople, links, mention: config.github.mention, cli: options.cli ?? 'npx nightbench' };
      const issue = await tracker.open({ fingerprint: b.fingerprint, title: renderBrokenTitle(b, repositoryOrder(loaded)), body: renderBrokenIssue(b, context), labels: [brokenLabel, b.suite] });
      if (issue.number !== undefined) opened.push(issue.number);
      log.info(`broken: ${describeBroken(b)} -> opened ${issue.ref}`);
    } else if (action.kind === 'comment') {
      await tracker.comment(action.issue, renderBrokenComment(b, night));
      log.info(`broken: ${describeBroken(b)} still failing -> commented on ${action.issue.ref}`);
    } else if (action.kind === 'close') {
      await tracker.close(action.issue, renderBrokenComment(b, night));
      log.info(`broken: ${describeBroken(b)} passes again -> closed ${action.issue.ref}`);
    } else {
      log.info(`broken: ${describeBroken(b)}: skip (${action.reason})`);
    }
  }
  return { actions, opened };
}

/**
 * The broken workload a "broken" issue reports, for `bisect --issue`: the history keeps no
 * issue numbers of failures, so the issue's fingerprint is read from GitHub and the failure
 * found again in the history by it. Undefined without GitHub, or when nothing matches.
 */
export async function brokenOfIssue(options: { store: HistoryStore; loaded: LoadedConfig; env: Record<string, string | undefined>; log: Log }, issueNumber: number): Promise<BrokenWorkload | undefined> {
  const repository = options.loaded.config.github.repository;
  const client = gitHubClientFor(options);
  if (!client || !repository) return undefined;
  const fingerprint = await readIssueFingerprint(client, repository, issueNumber);
  return fingerprint === undefined ? undefined : findBrokenByFingerprint(options.store.nightOutcomes(''), fingerprint);
}
