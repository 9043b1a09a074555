/**
 * From a detection report to issues: group the episodes, find their issues by fingerprint,
 * plan, collect git and GitHub context for new issues, carry out the plan, and store issue
 * numbers and acceptances with the episodes. What `nightbench issues` and `nightly` call.
 *
 * @module
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import type { DetectionReport } from '../detect/index.js';
import { nightsBefore, shiftNight } from '../night.js';
import { activeStates } from '../detect/episodes.js';
import { shortSha } from '../format/index.js';
import { collectRangeContext, type RangeContext } from '../git/range.js';
import type { EpisodeStore } from '../history/episode-store.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { applyIssueActions, type ActionOutcome } from './apply.js';
import { confirmOpenings, type ConfirmPort } from './confirm.js';
import { holdOpenings } from './machine-hold.js';
import { isCanary, isSuiteWide } from '../detect/machine-night.js';
import { createGitHubClient, type GitHubClient } from './github/client.js';
import { isGitHubFailure } from './github/errors.js';
import { fileTracker } from './file-tracker.js';
import { gitHubTracker } from './github/tracker.js';
import { detectableBySeries, episodeIssueFingerprint, groupEpisodes, issueMembership, provenEpisodes, tonightMachineBySeries, type IssueGroup } from './group.js';
import { configLinks } from './links.js';
import { noPeople } from './people.js';
import { improvementTargets, noRegressionIssue, planImprovementNotes } from './improvements.js';
import { planIssues, type IssueAction } from './plan.js';
import { renderImprovementComment, renderIssue, renderPersistComment, renderRecoveryComment, type RenderContext } from './render.js';
import { resolvePeople } from './resolve-people.js';
import type { IssueTracker, TrackedIssue } from './tracker.js';
import { checkoutDir } from '../target/git-target.js';

export interface PublishOptions {
  report: DetectionReport;
  store: Pick<HistoryStore, 'episodes' | 'triage' | 'runs'>;
  loaded: LoadedConfig;
  /** Where the token is read from (the variable github.tokenEnv names). */
  env: Record<string, string | undefined>;
  log: Log;
  /** Plan only: find the issues, print what would happen, change nothing. */
  dryRun?: boolean;
  /** How the reproduce section calls the CLI. */
  cli?: string;
  /** Reruns a group before its issue opens; used when `github.confirm` is `rerun`. */
  confirm?: ConfirmPort;
  /**
   * Issue files only, through this tracker of this folder, and GitHub never asked, token or not:
   * a replay keeps one for all its nights. Default: reports/issues/, GitHub when configured.
   */
  issueFiles?: { dir: string; tracker: IssueTracker };
}

export interface PublishResult {
  /** Where the issues went: "GitHub owner/name" or "files in DIR". */
  tracker: string;
  /** Where issue text goes without GitHub, or when it fails. */
  filesDir: string;
  night?: string;
  actions: IssueAction[];
  /** Absent in a dry run. */
  outcomes?: ActionOutcome[];
  /** Actions GitHub kept refusing (or all, when it could not be searched); their text is in the files. */
  failed: number;
  /** The first GitHub error, when `failed` > 0. */
  error?: string;
}

/**
 * Publishes the report's regressions. Never loses a detection: when GitHub keeps failing, the
 * text goes to reports/issues/ and `failed` counts it (the command then exits non-zero).
 */
export async function publishIssues(options: PublishOptions): Promise<PublishResult> {
  const { report, store, loaded, log } = options;
  const { config } = loaded;
  const night = report.night;
  const filesDir = options.issueFiles?.dir ?? path.resolve(loaded.baseDir, config.reports.dir, 'issues');
  const files = options.issueFiles?.tracker ?? fileTracker(filesDir);
  const client = options.issueFiles === undefined ? gitHubClientFor(options) : undefined;
  let tracker: IssueTracker = client && config.github.repository ? gitHubTracker(client, config.github.repository, config.github.labels) : files;
  if (night === undefined) return { tracker: tracker.description, filesDir, actions: [], failed: 0 };

  // The canary tells the machine's speed: its own episodes are never filed.
  const reported = reportedEpisodes(store.episodes, report, night).filter((e) => !isCanary(e.identity));
  const wanted = reported.filter((e) => e.kind === 'regression' || config.github.improvements === 'issue');
  const detectable = detectableBySeries(report.verdicts);
  const notes = config.github.improvements === 'comment' ? improvementTargets(reported, store.episodes.episodes(suiteFilter(report)), repositoryOrder(loaded), detectable) : [];
  // One search for all (listing a repository's issues with their comments is the costly call):
  // the issues episodes joined, those their own ranges name, and the improvements' regressions'.
  const fingerprints = [...new Set([...wanted.map(episodeIssueFingerprint), ...notes.flatMap((n) => n.issues)])];
  let existing: TrackedIssue[] = [];
  let unreachable: string | undefined;
  try {
    existing = fingerprints.length > 0 ? await tracker.find(fingerprints) : [];
  } catch (error) {
    // GitHub cannot even be searched: the whole plan goes to files, and the run is a failure.
    if (!isGitHubFailure(error) || tracker === files) throw error;
    log.warn(`${error.message}; writing issues to ${files.description} instead`);
    unreachable = error.message;
    tracker = files;
    existing = await files.find(fingerprints);
  }
  const membership = issueMembership(wanted, new Map(existing.map((issue) => [issue.fingerprint, issue.state === 'closed' && issue.closedByNightbench ? 'recovered' : issue.state])));
  // Where each new episode went is kept, so that a series recovering later never moves the others.
  if (!options.dryRun && !report.dryRun) {
    store.episodes.assignEpisodeIssues(new Map(wanted.flatMap((episode, i) => (episode.id !== undefined && episode.issueFingerprint === undefined ? [[episode.id, membership[i]!] as const] : []))));
  }
  const groups = groupEpisodes(wanted, repositoryOrder(loaded), detectable, tonightMachineBySeries(report.verdicts), membership);
  const plan = [...planIssues(groups, existing, night), ...planImprovementNotes(notes, existing)];
  // Each night's finding since the oldest group began (a replay's history has years of them).
  const oldest = plan.reduce<string | undefined>((min, a) => (min === undefined || a.group.firstBadNight < min ? a.group.firstBadNight : min), undefined);
  const findings = [...(oldest === undefined ? [] : store.episodes.machineNights({ sinceNight: oldest })), ...(report.machine ? [report.machine] : [])];
  // The machine nights with detection's reason: the holds read the nights, an issue held by one its reason.
  const machineReasons = new Map(findings.filter((m) => m.machine).map((m) => [m.night, m.reason]));
  const machineNights = new Set(machineReasons.keys());
  const suiteWideNights = new Set(findings.filter(isSuiteWide).map((m) => m.night));
  const planned = holdOpenings(plan, {
    night, machine: report.machine, machineNights, suiteWideNights, episodes: reported, rerunConfirms: config.github.confirm === 'rerun' && options.confirm !== undefined,
    provenTonight: provenEpisodes(reported, report.verdicts),
  });
  for (const action of planned) {
    if (action.kind === 'skip' && action.reason === noRegressionIssue) {
      const [series] = action.group.series;
      log.info(`improvement of ${series!.workload} ${series!.metric} since ${action.group.firstBadNight}: ${noRegressionIssue}`);
    }
  }
  if (options.dryRun) return { tracker: tracker.description, filesDir, night, actions: planned, failed: unreachable ? 1 : 0, ...(unreachable ? { error: unreachable } : {}) };
  // Only openings are confirmed: an issue already filed is commented on and closed as before.
  const actions = config.github.confirm === 'rerun' && options.confirm ? await confirmOpenings(planned, options.confirm, log) : planned;

  const links = configLinks(config);
  const fixes = store.triage.recordedFixes();
  const renderContext = (ranges: RenderContext['ranges'], people: RenderContext['people'], firstBadNight: string): RenderContext => ({
    night, ranges, people, links, mention: config.github.mention, cli: options.cli ?? 'npx nightbench', firstBadMachineReason: machineReasons.get(firstBadNight),
    nightsRun: (suite, after, through) => (after < through ? store.runs.nightsRecorded([suite], shiftNight(after, 1), through).length : 0),
  });
  const outcomes = await applyIssueActions(
    actions,
    tracker,
    {
      opening: async (group) => {
        const ranges = await gitContext(loaded, group, log);
        const collected = Object.values(ranges).filter((r): r is RangeContext => !('error' in r));
        const people = client ? await resolvePeople(client, config.github.targetRepositories, collected, log) : noPeople;
        const { title, body } = renderIssue(group, renderContext(ranges, people, group.firstBadNight));
        return { fingerprint: group.fingerprint, title, body, labels: [...config.github.labels, group.suite] };
      },
      persist: (group) => renderPersistComment(group, { night, links }),
      recovery: (group, issue) => renderRecoveryComment(group, { night, links, fixedBy: issue.number === undefined ? undefined : fixes.get(issue.number) }),
      improvement: (group, improvement) => renderImprovementComment(group, { links, improvement }),
    },
    { fallback: tracker === files ? undefined : files, log },
  );
  recordOutcomes(store.episodes, outcomes);
  const failed = unreachable ? actions.filter((a) => a.kind !== 'skip').length || 1 : outcomes.filter((o) => o.error).length;
  const error = unreachable ?? outcomes.find((o) => o.error)?.error;
  return { tracker: tracker.description, filesDir, night, actions, outcomes, failed, ...(error ? { error } : {}) };
}

/** A client when a repository is configured and its token is set; otherwise files, and why. */
export function gitHubClientFor({ loaded, env, log }: Pick<PublishOptions, 'loaded' | 'env' | 'log'>): GitHubClient | undefined {
  const github = loaded.config.github;
  if (!github.repository) return undefined;
  const token = env[github.tokenEnv];
  if (!token) {
    log.warn(`github.repository is ${github.repository} but ${github.tokenEnv} is not set: writing issues as files to ${path.join(loaded.config.reports.dir, 'issues')} instead`);
    return undefined;
  }
  return createGitHubClient(github, token, log);
}

/**
 * How long after its recovery an episode's issue is still closed by a later night: the recovery
 * night's close may have failed (GitHub down, exit 6) or its issues step never run. An issue
 * already closed is skipped by the plan, so looking again costs no action.
 */
const closeWithinDays = 60;

/** Tonight's active episodes plus those recovered in the last `closeWithinDays` (to close their issues). */
function reportedEpisodes(episodes: EpisodeStore, report: DetectionReport, night: string) {
  if (report.dryRun) return report.activeEpisodes;
  const since = nightsBefore(night, closeWithinDays);
  const recoveredLately = (e: { recoveredNight?: string }) => e.recoveredNight !== undefined && e.recoveredNight >= since && e.recoveredNight <= night;
  // A retired episode's last night is the night it was retired.
  const retiredLately = (e: { state: string; lastNight: string }) => e.state === 'retired' && e.lastNight >= since && e.lastNight <= night;
  return episodes.episodes(suiteFilter(report)).filter((e) => activeStates.includes(e.state) || recoveredLately(e) || retiredLately(e));
}

/** The stored episodes a report concerns: its suite's, or every suite's. */
function suiteFilter(report: DetectionReport): { suite?: string } {
  return report.suite === undefined ? {} : { suite: report.suite };
}

export function repositoryOrder(loaded: LoadedConfig): string[] {
  const target = loaded.config.target;
  return target.kind === 'git' ? target.repositories.map((r) => r.name) : [];
}

/**
 * Git context of each changed repository of a git target, from the nightly's own clones
 * (`<workdir>/checkouts/<repo>`). A range git cannot read is reported in the issue, not fatal.
 */
export async function gitContext(loaded: LoadedConfig, group: Pick<IssueGroup, 'ranges'>, log: Log): Promise<RenderContext['ranges']> {
  const repositories = repositoryOrder(loaded);
  const ranges: RenderContext['ranges'] = {};
  for (const range of group.ranges) {
    if (range.from === range.to || !repositories.includes(range.repo)) continue;
    const dir = checkoutDir(path.resolve(loaded.baseDir, loaded.config.workdir), range.repo);
    try {
      ranges[range.repo] = await collectRangeContext(dir, range.repo, range.from, range.to, log);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn(`no git context for ${range.repo} ${shortSha(range.from)}..${shortSha(range.to)}: ${message}`);
      ranges[range.repo] = { error: message };
    }
  }
  return ranges;
}

function recordOutcomes(episodes: EpisodeStore, outcomes: readonly ActionOutcome[]): void {
  for (const { action, issue } of outcomes) {
    // A noted improvement stays apart from the regression's issue: a triage command there (accept,
    // false-alarm) is about the regression, never about the improvement.
    if (action.kind === 'note') continue;
    const ids = action.group.series.flatMap((s) => (s.episodeId === undefined ? [] : [s.episodeId]));
    if (action.kind === 'accept') episodes.markEpisodesAccepted(ids);
    else if (action.kind === 'unconfirmed') episodes.markEpisodesUnconfirmed(ids);
    else if (issue?.number !== undefined) episodes.setEpisodeIssue(ids, issue.number);
  }
}
