/**
 * Broken workloads as issues: found in the night's outcomes, planned against the issues that
 * carry their fingerprints, opened with the git context of their range, commented on while
 * failing, closed when passing. Beside the regressions' publishing, through the same tracker.
 *
 * @module
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { nightsBefore } from '../night.js';
import { findBroken, findBrokenByFingerprint, type BrokenWorkload } from '../detect/failures.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { brokenLabel, brokenRanges, describeBroken, planBroken, renderBrokenComment, renderBrokenIssue, renderBrokenTitle, type BrokenAction } from './broken.js';
import { fileTracker } from './file-tracker.js';
import { gitHubTracker, readIssueFingerprint } from './github/tracker.js';
import { configLinks } from './links.js';
import { noPeople } from './people.js';
import { gitContext, gitHubClientFor, repositoryOrder } from './publish.js';
import { attemptWithFallback } from './apply.js';
import { isGitHubFailure } from './github/errors.js';

/** How long after its last failure a workload passing again still has its issue looked for (to close it). */
const closeWithinDays = 60;

/** The night's broken-workload actions, the numbers of the issues opened (for the nightly's bisect job), and what GitHub refused. */
export interface BrokenResult {
  actions: BrokenAction[];
  opened: number[];
  /** Actions GitHub kept refusing (or all, when it could not be searched); their text is in `filesDir`. */
  failed: number;
  /** The first GitHub error, when `failed` > 0. */
  error?: string;
}

export async function publishBroken(options: { store: Pick<HistoryStore, 'nights'>; loaded: LoadedConfig; night: string; env: Record<string, string | undefined>; log: Log; cli?: string }): Promise<BrokenResult> {
  const { store, loaded, night, log } = options;
  const { config } = loaded;
  // The whole history: a failing streak's first night (its fingerprint) may lie far back.
  const broken = findBroken(store.nights.nightOutcomes(''), night, nightsBefore(night, closeWithinDays));
  if (broken.length === 0) return { actions: [], opened: [], failed: 0 };
  const files = fileTracker(path.resolve(loaded.baseDir, config.reports.dir, 'issues'));
  const client = gitHubClientFor(options);
  let tracker = client && config.github.repository ? gitHubTracker(client, config.github.repository, [brokenLabel]) : files;
  const fingerprints = broken.map((b) => b.fingerprint);
  let existing;
  let unreachable: string | undefined;
  try {
    existing = await tracker.find(fingerprints);
  } catch (error) {
    // GitHub cannot even be searched: every action goes to files, and the night is a GitHub failure.
    if (!isGitHubFailure(error) || tracker === files) throw error;
    log.warn(`${error.message}; writing broken-workload issues to ${files.description} instead`);
    unreachable = error.message;
    tracker = files;
    existing = await files.find(fingerprints);
  }
  const actions = planBroken(broken, existing, night);
  const links = configLinks(config);
  const opened: number[] = [];
  const errors: string[] = [];
  const fallback = { fallback: tracker === files ? undefined : files, log };
  for (const action of actions) {
    const b = action.broken;
    if (action.kind === 'skip') {
      log.info(`broken: ${describeBroken(b)}: skip (${action.reason})`);
      continue;
    }
    const text =
      action.kind === 'open'
        ? { fingerprint: b.fingerprint, title: renderBrokenTitle(b, repositoryOrder(loaded)), body: renderBrokenIssue(b, { night, ranges: await gitContext(loaded, { ranges: brokenRanges(b) }, log), people: noPeople, links, mention: config.github.mention, cli: options.cli ?? 'npx nightbench' }), labels: [brokenLabel, b.suite] }
        : undefined;
    const tried = await attemptWithFallback(
      async (on) => {
        if (action.kind === 'open') return on.open(text!);
        if (action.kind === 'comment') await on.comment(action.issue, renderBrokenComment(b, night));
        else await on.close(action.issue, renderBrokenComment(b, night));
        return action.issue;
      },
      tracker,
      fallback,
    );
    if (tried.error !== undefined) errors.push(tried.error);
    const where = tried.error === undefined ? tried.value.ref : `${tried.fallback} (GitHub failed)`;
    if (action.kind === 'open' && tried.error === undefined && tried.value.number !== undefined) opened.push(tried.value.number);
    log.info(`broken: ${describeBroken(b)} ${{ open: '-> opened', comment: 'still failing -> commented on', close: 'passes again -> closed' }[action.kind]} ${where}`);
  }
  const failed = unreachable ? actions.filter((a) => a.kind !== 'skip').length || 1 : errors.length;
  const error = unreachable ?? errors[0];
  return { actions, opened, failed, ...(error ? { error } : {}) };
}

/**
 * The broken workload a "broken" issue reports, for `bisect --issue`: the history keeps no
 * issue numbers of failures, so the issue's fingerprint is read from GitHub and the failure
 * found again in the history by it. Undefined without GitHub, or when nothing matches.
 */
export async function brokenOfIssue(options: { store: Pick<HistoryStore, 'nights'>; loaded: LoadedConfig; env: Record<string, string | undefined>; log: Log }, issueNumber: number): Promise<BrokenWorkload | undefined> {
  const repository = options.loaded.config.github.repository;
  const client = gitHubClientFor(options);
  if (!client || !repository) return undefined;
  const fingerprint = await readIssueFingerprint(client, repository, issueNumber);
  return fingerprint === undefined ? undefined : findBrokenByFingerprint(options.store.nights.nightOutcomes(''), fingerprint);
}
