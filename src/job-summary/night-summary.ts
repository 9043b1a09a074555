/**
 * A night as a GitHub Actions job summary: the runs (per shard), the changes detection found,
 * the failures and the cost, plus annotations for regressions and outputs for later jobs.
 * Pure: the data comes in, Markdown and lists come out; `job-summary.ts` writes them.
 */
import { lastLines } from '../errors.js';
import { formatChange, formatCount, formatHours, formatMinutes, formatPercent, formatShare, formatUsd, formatValue, formatVariant } from '../format/index.js';
import type { MachineNight } from '../detect/machine-night.js';
import type { SensitivitySummary } from '../detect/sensitivity.js';
import type { SummaryFailure, SummaryRun } from '../history/night-rows.js';
import type { DetectionQuality, QualityRow } from '../detect/quality.js';

/** A series whose night detection judged a change (or could not judge: failed). */
export interface SummaryChange {
  suite: string;
  workload: string;
  metric: string;
  /** The cluster shape and environment it ran on (`formatVariant`). */
  variant: string;
  kind: 'regression' | 'improvement';
  /** Relative change of the median, e.g. 0.148 for +14.8%. */
  change?: number;
  newMedian?: number;
  baselineMedian?: number;
  unit?: string;
  reason: string;
}

export interface NightSummaryInput {
  night: string;
  runs: SummaryRun[];
  failures: SummaryFailure[];
  changes: SummaryChange[];
  /** Series judged stable tonight, counted, not listed. */
  stable: number;
  /**
   * Series with a value tonight that detection could not judge: too little history yet (the
   * first nights of a series), or tonight's repeats disturbed. Counted, so that silence on a
   * young history reads as "not judged yet", not as "nothing changed". Absent without detection.
   */
  unjudged?: { youngHistory: number; minBaselineNights: number; disturbed: number; notPositive: number };
  /** Judged series too new at their level: what they catch is said from their `reachNights`th night there (absent without detection). */
  sensitivityUnknown?: { series: number; reachNights: number };
  /** When the night was split: shards that recorded no run (their job failed before recording). */
  expectedShards?: number;
  /** Where the published pages are, for a link. */
  reportUrl?: string;
  /** Verdicts and precision of the regression issues so far; the section is left out before the first issue. */
  quality?: DetectionQuality;
  /** What each judged series catches at its settings (absent without detection). */
  sensitivity?: SummarySensitivity[];
  /** Whether the machine, not the code, moved the night (absent without detection). */
  machine?: MachineNight;
}

/** One judged series' sensitivity on the night. */
export interface SummarySensitivity extends SensitivitySummary {
  suite: string;
  workload: string;
  metric: string;
  /** The cluster shape and environment it ran on (`formatVariant`). */
  variant: string;
}

/**
 * Each listed series' name, with its cluster shape and environment when the list holds more than
 * one (an asv history's Python versions): without it one workload and metric showed twice with
 * different figures and nothing to tell the rows apart.
 */
function seriesNames(list: readonly { suite: string; workload: string; variant: string }[]): string[] {
  const several = new Set(list.map((s) => s.variant)).size > 1;
  return list.map((s) => `${s.suite}/${s.workload}${several ? ` (${s.variant})` : ''}`);
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  title: string;
  message: string;
}

/** Shards of 1..expected that recorded no run. */
export function missingShards(input: NightSummaryInput): string[] {
  if (!input.expectedShards) return [];
  const seen = new Set(input.runs.map((r) => r.shard));
  return Array.from({ length: input.expectedShards }, (_, i) => `${i + 1}/${input.expectedShards}`).filter((s) => !seen.has(s));
}

export function totalCost(runs: readonly SummaryRun[]): number | undefined {
  const costs = runs.flatMap((r) => (r.costUsd === undefined ? [] : [r.costUsd]));
  return costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : undefined;
}

/** The job summary's Markdown. Every value from the history is escaped: names and errors are not markup. */
export function renderNightSummary(input: NightSummaryInput): string {
  const regressions = input.changes.filter((c) => c.kind === 'regression');
  const improvements = input.changes.filter((c) => c.kind === 'improvement');
  const missing = missingShards(input);
  const cost = totalCost(input.runs);
  const lines: string[] = [`## nightbench: night ${escape(input.night)}`, ''];
  lines.push(
    [
      `${formatCount(regressions.length, 'regression')}`,
      `${formatCount(improvements.length, 'improvement')}`,
      `${input.stable} stable series`,
      ...unjudgedCounts(input.unjudged),
      `${formatCount(input.failures.length, 'failed repeat')}`,
      ...(missing.length ? [`**${formatCount(missing.length, 'shard')} missing**`] : []),
      ...(cost !== undefined ? [`cost ${formatUsd(cost)}`] : []),
    ].join(' · '),
  );
  if (input.machine?.machine) {
    lines.push('', `**machine night**: ${escape(input.machine.reason)}. The machine, not the code, moved tonight's numbers: regressions that open tonight wait for the next night (or a confirming rerun) before they are filed.`);
  }
  if (input.reportUrl) lines.push('', `[History pages](${input.reportUrl})`);

  lines.push('', '### Runs', '', '| suite | shard | cluster · environment | status | ok | failed | timed out | disturbed | minutes | cost |', '|---|---|---|---|--:|--:|--:|--:|--:|--:|');
  for (const run of input.runs) {
    const minutes = run.finishedAt ? formatMinutes((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000) : '';
    const r = run.repeats;
    lines.push(row([run.suite, run.shard ?? '', formatVariant(run), run.status, r.ok, r.failed, r.timeout, r.disturbed, minutes, run.costUsd === undefined ? '' : formatUsd(run.costUsd)]));
  }
  for (const shard of missing) lines.push(row(['', shard, '', '**no run recorded: the shard job failed**', '', '', '', '', '', '']));
  if (input.runs.length === 0 && missing.length === 0) lines.push(row(['(no run recorded this night)', '', '', '', '', '', '', '', '', '']));

  if (input.changes.length > 0) {
    lines.push('', '### Changes', '', '| | workload | metric | change | tonight | baseline | why |', '|---|---|---|--:|--:|--:|---|');
    const changes = [...regressions, ...improvements];
    const names = seriesNames(changes);
    for (const [i, c] of changes.entries()) {
      lines.push(row([c.kind === 'regression' ? '🔴 regression' : '🟢 improvement', names[i]!, c.metric, percent(c.change), value(c.newMedian, c.unit), value(c.baselineMedian, c.unit), c.reason]));
    }
  }
  if (input.failures.length > 0) {
    lines.push('', '### Failures', '', '| workload | repeat | status | whose | error |', '|---|--:|---|---|---|');
    for (const f of input.failures) lines.push(row([`${f.suite}/${f.workload}`, f.repeat, f.status, f.failure ? `${f.failure.class}: ${f.failure.cause}` : '', lastLine(f.error)]));
  }
  if ((input.sensitivity && input.sensitivity.length > 0) || input.sensitivityUnknown?.series) lines.push(...renderSensitivitySection(input.sensitivity ?? [], input.sensitivityUnknown));
  if (input.quality && input.quality.all.opened > 0) lines.push(...renderQualitySection(input.quality));
  return `${lines.join('\n')}\n`;
}

/** The headline's words for the series detection could not judge tonight (none when all were judged). */
function unjudgedCounts(unjudged: NightSummaryInput['unjudged']): string[] {
  if (!unjudged) return [];
  const words: string[] = [];
  if (unjudged.youngHistory > 0) words.push(`${unjudged.youngHistory} series not judged yet (fewer than ${unjudged.minBaselineNights} good nights of history)`);
  if (unjudged.disturbed > 0) words.push(`${unjudged.disturbed} series not judged (too few undisturbed repeats tonight)`);
  if (unjudged.notPositive > 0) words.push(`${unjudged.notPositive} series not judged (zero or negative: no relative change)`);
  return words;
}

/** One annotation per regression and per missing shard; failed repeats are one warning each workload. */
export function nightAnnotations(input: NightSummaryInput): Annotation[] {
  const annotations: Annotation[] = input.changes
    .filter((c) => c.kind === 'regression')
    .map((c) => ({ level: 'warning', title: `Regression: ${c.suite}/${c.workload} ${c.metric} ${percent(c.change)}`, message: `night ${input.night}: ${c.reason}` }));
  for (const shard of missingShards(input)) annotations.push({ level: 'error', title: `Shard ${shard} recorded nothing`, message: `night ${input.night}: its job failed before recording a run; the other shards were merged` });
  const failedWorkloads = new Map<string, SummaryFailure[]>();
  for (const f of input.failures) {
    const key = `${f.suite}/${f.workload}`;
    failedWorkloads.set(key, [...(failedWorkloads.get(key) ?? []), f]);
  }
  for (const [workload, failures] of failedWorkloads) {
    annotations.push({ level: 'warning', title: `${workload}: ${formatCount(failures.length, 'repeat')} failed`, message: lastLine(failures[0]?.error) || failures[0]!.status });
  }
  return annotations;
}

/** Step outputs a later job or step reads (`steps.<id>.outputs.regressions`, ...). */
export function nightOutputs(input: NightSummaryInput): Record<string, string> {
  const cost = totalCost(input.runs);
  return {
    night: input.night,
    runs: String(input.runs.length),
    regressions: String(input.changes.filter((c) => c.kind === 'regression').length),
    improvements: String(input.changes.filter((c) => c.kind === 'improvement').length),
    failures: String(input.failures.length),
    'missing-shards': missingShards(input).join(','),
    'cost-usd': cost === undefined ? '' : cost.toFixed(2),
    machine: input.machine?.machine ? 'true' : 'false',
  };
}

/** Series listed in the Sensitivity section, least sensitive first; the workload pages show them all. */
const listedSensitivity = 30;

/**
 * The Sensitivity section: how many series their threshold limits (not their noise), then the least sensitive ones,
 * each with what it sees and what it would need, so silence on them reads for what it is.
 */
function renderSensitivitySection(series: readonly SummarySensitivity[], unknown: NightSummaryInput['sensitivityUnknown']): string[] {
  const lines = ['', '### Sensitivity', ''];
  // A series new at its level has its noise from a few nights, and too few for a step's nights to
  // rank apart: what it would catch is not said until it is known.
  const young = unknown?.series ? [`${unknown.series} judged series are too new at their level to tell what they catch: that is known from a series' ${unknown.reachNights}th night at its level.`] : [];
  if (series.length === 0) return [...lines, ...young];
  // A change of the threshold itself measures below it half the time: what a series sees is a
  // little above it even where its noise no longer matters (`src/detect/sensitivity.ts`).
  const blind = series.filter((s) => s.repeatsForThreshold !== undefined || s.thresholdOutOfReach === true);
  const nights = series[0]!.nights;
  lines.push(`${series.length - blind.length} of ${series.length} series with a known noise are limited by their threshold, not their noise, within ${nights} nights.`);
  if (young.length > 0) lines.push('', ...young);
  const listed = [...series].sort((a, b) => b.withinNights / b.threshold - a.withinNights / a.threshold).slice(0, listedSensitivity);
  lines.push('', `| workload | metric | repeats | first night | within ${nights} nights | in words |`, '|---|---|--:|--:|--:|---|');
  const names = seriesNames(listed);
  for (const [i, s] of listed.entries()) lines.push(row([names[i]!, s.metric, s.repeats, s.oneNight === undefined ? '—' : formatPercent(s.oneNight), formatPercent(s.withinNights), s.text]));
  if (series.length > listed.length) lines.push('', `(${series.length - listed.length} more sensitive series not listed; each workload page lists its own)`);
  return lines;
}

/** Months shown in the summary; the page shows them all. */
const recentMonths = 3;
const listedFalseAlarms = 3;

/**
 * The Detection quality section: nightbench's precision from the verdicts maintainers gave on
 * its issues, per month and per suite, and the series with the most false alarms.
 */
function renderQualitySection(quality: DetectionQuality): string[] {
  const { all } = quality;
  const lines = ['', '### Detection quality', ''];
  lines.push(
    [
      `${formatCount(all.opened, 'issue')} opened`,
      `precision ${all.precision === undefined ? '—' : formatShare(all.precision)} (${all.truePositive} true, ${formatCount(all.falsePositive, 'false positive')})`,
      `${all.unknown} closed without a verdict`,
      `${all.open} open`,
    ].join(' · '),
  );
  const header = (first: string) => [`| ${first} | opened | true positives | false positives | unknown | open | precision | first triage (median) | fix (median) |`, '|---|--:|--:|--:|--:|--:|--:|--:|--:|'];
  lines.push('', ...header('month'), ...quality.byMonth.slice(-recentMonths).map(qualityRow));
  lines.push('', ...header('suite'), ...quality.bySuite.map(qualityRow));
  if (quality.falseAlarms.length > 0) {
    lines.push('', 'Most false alarms:');
    for (const f of quality.falseAlarms.slice(0, listedFalseAlarms)) lines.push(`- ${escape(`${f.suite}/${f.workload} ${f.metric}`)} (${f.falseAlarms}): ${escape(f.adviceText)}`);
  }
  return lines;
}

function qualityRow(r: QualityRow): string {
  return row([r.key, r.opened, r.truePositive, r.falsePositive, r.unknown, r.open, r.precision === undefined ? '—' : formatShare(r.precision), r.medianTriageHours === undefined ? '—' : formatHours(r.medianTriageHours), r.medianFixDays === undefined ? '—' : formatHours(r.medianFixDays * 24)]);
}

function row(cells: (string | number)[]): string {
  return `| ${cells.map((c) => escape(String(c))).join(' | ')} |`;
}

/** Table cells hold text only: HTML is neutralised, pipes and newlines would break the row. */
export function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function lastLine(text: string | undefined): string {
  return lastLines(text ?? '').slice(0, 200);
}

function percent(change: number | undefined): string {
  return change === undefined ? '' : formatChange(change);
}

function value(v: number | undefined, unit: string | undefined): string {
  return v === undefined ? '' : formatValue(v, unit);
}

