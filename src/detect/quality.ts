/**
 * Detection quality: the verdict of each regression issue, derived from its episodes and the
 * triage commands given on it, and nightbench's own precision per month and per suite. Pure:
 * episodes, commands and the time come in; the figures the page and the summary show come out.
 *
 * Verdicts: true positive (accepted as intended, or fixed: a fix was named and the nightly saw
 * the series recover), false positive (`/nightbench false-alarm`), unknown (closed by hand, or
 * recovered, without a command: counted apart, never in the precision).
 *
 * @module
 */
import { median } from 'simple-statistics';
import type { Episode } from './episodes.js';
import type { TriageEvent } from '../history/triage-queries.js';
import { formatPercentOneDecimal } from '../format/index.js';

export type Verdict = 'true-positive' | 'false-positive' | 'unknown';
export type VerdictReason = 'accepted' | 'fixed' | 'false-alarm' | 'closed-by-hand' | 'recovered' | 'retired';

/** The episode fields quality needs (a stored episode has them all). */
export type QualityEpisode = Pick<Episode, 'fingerprint' | 'identity' | 'state' | 'firstBad' | 'recoveredNight' | 'issueNumber' | 'ratio' | 'baselineNoise'>;

/** One issue and where triage left it. */
export interface IssueOutcome {
  issueNumber: number;
  suite: string;
  /** ISO time the issue was opened (its first bad night when no command told GitHub's time). */
  openedAt: string;
  /** Absent while the issue is open. */
  verdict?: Verdict;
  reason?: VerdictReason;
  /** The commit named by `/nightbench fixed-by`, the latest. */
  fixedBy?: string;
  /** From opening to the first command. */
  triageHours?: number;
  /** From opening to the night the nightly saw a fixed issue recover. */
  fixDays?: number;
  episodes: QualityEpisode[];
}

/** Figures of one month, one suite, or all issues. */
export interface QualityRow {
  /** "2026-12", a suite's name, or "all". */
  key: string;
  opened: number;
  truePositive: number;
  falsePositive: number;
  unknown: number;
  open: number;
  /** truePositive / (truePositive + falsePositive); absent without such verdicts. */
  precision?: number;
  medianTriageHours?: number;
  medianFixDays?: number;
}

export type AgeBucket = 'under a week' | '1 to 4 weeks' | 'over 4 weeks';
const ageBuckets: readonly AgeBucket[] = ['under a week', '1 to 4 weeks', 'over 4 weeks'];

/** A series whose regressions were called false alarms, and what would stop them. */
export interface FalseAlarmSeries {
  suite: string;
  workload: string;
  metric: string;
  falseAlarms: number;
  /** Median noise estimate of a nightly median when the false alarms opened. */
  noise: number;
  /** The largest false step, as a relative change. */
  largestStep: number;
  threshold: number;
  advice: 'more-repeats' | 'higher-threshold';
  /** The advice in a sentence, with the figures. */
  adviceText: string;
}

export interface DetectionQuality {
  all: QualityRow;
  byMonth: QualityRow[];
  bySuite: QualityRow[];
  openByAge: { bucket: AgeBucket; issues: { issueNumber: number; suite: string; ageDays: number }[] }[];
  falseAlarms: FalseAlarmSeries[];
  issues: IssueOutcome[];
}

export interface QualityOptions {
  now: Date;
  /** Detection's threshold of a series (a relative change). */
  threshold(suite: string, workload: string, metric: string): number;
  /** How many false-alarm series to list; default 10. */
  falseAlarmLimit?: number;
}

const hour = 3_600_000;
const day = 24 * hour;
/**
 * A series whose noise is at least this share of its threshold is noisy: its false alarms are
 * noise passing the test, and more repeats (a quieter median) stop them. Below it, the series is
 * quiet and its steps were real but too small to matter: a higher threshold stops them.
 */
const noisyShareOfThreshold = 0.25;

/** Each issue's outcome, oldest first: episodes grouped by issue, commands applied in order. */
export function issueOutcomes(episodes: readonly QualityEpisode[], events: readonly TriageEvent[]): IssueOutcome[] {
  const byIssue = new Map<number, QualityEpisode[]>();
  for (const episode of episodes) {
    if (episode.issueNumber === undefined) continue;
    byIssue.set(episode.issueNumber, [...(byIssue.get(episode.issueNumber) ?? []), episode]);
  }
  const eventsOf = new Map<number, TriageEvent[]>();
  for (const event of [...events].sort((a, b) => a.at.localeCompare(b.at))) eventsOf.set(event.issueNumber, [...(eventsOf.get(event.issueNumber) ?? []), event]);

  const outcomes = [...byIssue].map(([issueNumber, own]) => outcomeOf(issueNumber, own, eventsOf.get(issueNumber) ?? []));
  return outcomes.sort((a, b) => a.openedAt.localeCompare(b.openedAt) || a.issueNumber - b.issueNumber);
}

function outcomeOf(issueNumber: number, episodes: QualityEpisode[], events: TriageEvent[]): IssueOutcome {
  const firstBad = episodes.map((e) => e.firstBad.night).sort()[0]!;
  const openedAt = events[0]?.issueOpenedAt ?? `${firstBad}T00:00:00.000Z`;
  const outcome: IssueOutcome = { issueNumber, suite: episodes[0]!.identity.suite, openedAt, episodes };
  if (events[0]) outcome.triageHours = Math.max(0, (Date.parse(events[0].at) - Date.parse(openedAt)) / hour);
  const fix = events.filter((e) => e.command === 'fixed-by').at(-1);
  if (fix?.argument) outcome.fixedBy = fix.argument;

  const decisive = events.filter((e) => e.command === 'accept' || e.command === 'false-alarm').at(-1);
  if (decisive) return { ...outcome, ...(decisive.command === 'accept' ? { verdict: 'true-positive', reason: 'accepted' } : { verdict: 'false-positive', reason: 'false-alarm' }) };
  if (episodes.some((e) => e.state === 'open' || e.state === 'still-regressed')) return outcome;
  if (episodes.some((e) => e.state === 'accepted')) return { ...outcome, verdict: 'unknown', reason: 'closed-by-hand' };
  // Closed because its series are no longer measured: whether it was real, nobody said.
  if (episodes.some((e) => e.state === 'retired')) return { ...outcome, verdict: 'unknown', reason: 'retired' };
  if (!fix) return { ...outcome, verdict: 'unknown', reason: 'recovered' };
  const recovered = episodes.map((e) => e.recoveredNight!).sort().at(-1)!;
  return { ...outcome, verdict: 'true-positive', reason: 'fixed', fixDays: Math.max(0, (Date.parse(`${recovered}T00:00:00Z`) - Date.parse(openedAt)) / day) };
}

/** The quality figures: overall, per month of opening, per suite, open issues by age, false alarms. */
export function detectionQuality(episodes: readonly QualityEpisode[], events: readonly TriageEvent[], options: QualityOptions): DetectionQuality {
  const issues = issueOutcomes(episodes, events);
  const rows = (keyOf: (issue: IssueOutcome) => string) => {
    const groups = new Map<string, IssueOutcome[]>();
    for (const issue of issues) groups.set(keyOf(issue), [...(groups.get(keyOf(issue)) ?? []), issue]);
    return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, members]) => qualityRow(key, members));
  };
  const now = options.now.getTime();
  const open = issues.filter((i) => i.verdict === undefined).map((i) => ({ issueNumber: i.issueNumber, suite: i.suite, ageDays: Math.max(0, (now - Date.parse(i.openedAt)) / day) }));
  const bucketOf = (ageDays: number): AgeBucket => (ageDays < 7 ? 'under a week' : ageDays <= 28 ? '1 to 4 weeks' : 'over 4 weeks');
  return {
    all: qualityRow('all', issues),
    byMonth: rows((i) => i.openedAt.slice(0, 7)),
    bySuite: rows((i) => i.suite),
    openByAge: ageBuckets.map((bucket) => ({ bucket, issues: open.filter((i) => bucketOf(i.ageDays) === bucket).sort((a, b) => b.ageDays - a.ageDays) })),
    falseAlarms: falseAlarmSeries(issues, options),
    issues,
  };
}

function qualityRow(key: string, issues: readonly IssueOutcome[]): QualityRow {
  const count = (verdict: Verdict) => issues.filter((i) => i.verdict === verdict).length;
  const truePositive = count('true-positive');
  const falsePositive = count('false-positive');
  const triage = issues.flatMap((i) => (i.triageHours === undefined ? [] : [i.triageHours]));
  const fix = issues.flatMap((i) => (i.fixDays === undefined ? [] : [i.fixDays]));
  return {
    key,
    opened: issues.length,
    truePositive,
    falsePositive,
    unknown: count('unknown'),
    open: issues.filter((i) => i.verdict === undefined).length,
    ...(truePositive + falsePositive > 0 ? { precision: truePositive / (truePositive + falsePositive) } : {}),
    ...(triage.length > 0 ? { medianTriageHours: median(triage) } : {}),
    ...(fix.length > 0 ? { medianFixDays: median(fix) } : {}),
  };
}

/** Series with the most false alarms first; each with the change that would have stopped them. */
function falseAlarmSeries(issues: readonly IssueOutcome[], options: QualityOptions): FalseAlarmSeries[] {
  const bySeries = new Map<string, QualityEpisode[]>();
  for (const issue of issues.filter((i) => i.verdict === 'false-positive')) {
    for (const episode of issue.episodes) {
      const key = JSON.stringify([episode.identity.suite, episode.identity.workload, episode.identity.metric]);
      bySeries.set(key, [...(bySeries.get(key) ?? []), episode]);
    }
  }
  const series = [...bySeries.values()].map((episodes): FalseAlarmSeries => {
    const { suite, workload, metric } = episodes[0]!.identity;
    const noise = median(episodes.map((e) => e.baselineNoise));
    const largestStep = Math.max(...episodes.map((e) => Math.abs(e.ratio - 1)));
    const threshold = options.threshold(suite, workload, metric);
    const noisy = noise >= threshold * noisyShareOfThreshold;
    const adviceText = noisy
      ? `more repeats: its nightly noise (${formatPercentOneDecimal(noise)}) is over a quarter of its ${formatPercentOneDecimal(threshold)} threshold; four times the repeats halve it`
      : `a higher threshold: it is quiet (noise ${formatPercentOneDecimal(noise)}) and its false steps reached ${formatPercentOneDecimal(largestStep)}; a threshold of ${formatPercentOneDecimal(suggestedThreshold(largestStep))} for it would have stayed silent`;
    return { suite, workload, metric, falseAlarms: episodes.length, noise, largestStep, threshold, advice: noisy ? 'more-repeats' : 'higher-threshold', adviceText };
  });
  series.sort((a, b) => b.falseAlarms - a.falseAlarms || a.suite.localeCompare(b.suite) || a.workload.localeCompare(b.workload) || a.metric.localeCompare(b.metric));
  return series.slice(0, options.falseAlarmLimit ?? 10);
}

/** The next 5% step above the largest false step. */
function suggestedThreshold(largestStep: number): number {
  return (Math.floor(largestStep * 20 + 1e-9) + 1) / 20;
}
