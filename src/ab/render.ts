import { formatBand, formatCount, formatLevel, formatP, formatRatioRange, formatSeconds, formatValue } from '../format/index.js';
import { byEffect, type AbAnalysis, type AbFailure, type AbTest } from './analysis.js';
import type { AbGroup } from './schedule.js';
import { verdictLabel } from './verdict.js';

/** What a report says about the A/B besides its tests. */
export interface AbReportHeader {
  id: string;
  createdAt: string;
  status: string;
  groups: readonly AbGroup[];
  repeats: number;
  order: string;
  seed: number;
  clusterShapes: readonly string[];
  fdr: number;
  /** Level of the ratios' bootstrap intervals (ab.confidence): the tables' headings say it. */
  confidence: number;
  /** What the A/B cost; absent while it runs. */
  cost?: AbCost;
}

/** An A/B's cost: the time from its first slot to its last, and the clusters and repeats its schedule asked for. */
export interface AbCost {
  seconds: number;
  clusters: number;
  repeats: number;
  /** Clusters at most at a time (ab.maxParallel): the cluster time is up to this many times `seconds`. */
  parallel: number;
}

/** One test as table cells (in the order of the terminal columns), with the test itself. */
export interface Row {
  cells: string[];
  test: AbTest;
}

/** The columns of the terminal table and the pull-request comment; the interval's is headed with its level. */
export const tableColumns = (header: Pick<AbReportHeader, 'confidence'>) => ['workload', 'metric', 'vs A', 'A median', 'median', `ratio [${formatLevel(header.confidence)} CI]`, 'A/A band', 'p adj', 'verdict'];

/** The tests as table rows: significant changes first, then by effect size. */
export function rows(analysis: AbAnalysis): Row[] {
  return [...analysis.tests].sort(byEffect).map((test) => ({
    test,
    cells: [
      test.workload,
      test.metric,
      test.group,
      formatValue(test.baseline.median, test.unit),
      formatValue(test.candidate.median, test.unit),
      test.ratio ? formatRatioRange(test.ratio) : '-',
      test.band ? formatBand(test.band) : '-',
      formatP(test.pAdjusted),
      verdictLabel(test.verdict, test.unit),
    ],
  }));
}

function groupLines(header: AbReportHeader): string[] {
  return header.groups.map((g) => `${g.label} = ${g.environment}${g.role === 'null' ? ' (second, independent set of the baseline)' : g.role === 'baseline' ? ' (baseline)' : ''}`);
}

/** "7.4 min of cluster time, 24 clusters one at a time, 48 repeats", or nothing while the A/B runs. */
export function costLine(header: AbReportHeader): string | undefined {
  const { cost } = header;
  if (!cost) return undefined;
  const time = cost.parallel === 1 ? `${formatSeconds(cost.seconds)} of cluster time, ${cost.clusters} clusters one at a time` : `${formatSeconds(cost.seconds)} with up to ${cost.parallel} clusters at a time (at most ${formatSeconds(cost.seconds * cost.parallel)} of cluster time), ${cost.clusters} clusters`;
  return `${time}, ${cost.repeats} repeats`;
}

/** "2 of 12 tests changed; 1 workload failed; A/A: 0 of 12 differ". */
export function summaryLine(analysis: AbAnalysis): string {
  const changed = analysis.tests.filter((t) => t.verdict !== 'no clear change').length;
  const nullChanged = analysis.nullTests.filter((t) => t.verdict !== 'no clear change').length;
  const failed = new Set(analysis.failures.map((f) => `${f.suite}/${f.workload}`)).size;
  const failures = failed > 0 ? `; ${formatCount(failed, 'workload')} failed` : '';
  const aa = analysis.nullTests.length > 0 ? `; A/A: ${nullChanged} of ${analysis.nullTests.length} differ` : '';
  return `${changed} of ${analysis.tests.length} tests changed${failures}${aa}`;
}

const statusWords: Record<keyof AbFailure['repeats'], string> = { failed: 'failed', timeout: 'timed out', disturbed: 'disturbed' };

/**
 * "matmul in B (eager-spill): no repeat ran cleanly (8 failed; last error: SystemExit: 1); not compared".
 * `quote` marks the error up (Markdown puts it in a code span: it is the tested code's output).
 */
export function failureLine(failure: AbFailure, groups: readonly AbGroup[], quote = (error: string) => error): string {
  const environment = groups.find((g) => g.label === failure.group)?.environment;
  const counts = Object.entries(failure.repeats).map(([status, n]) => `${n} ${statusWords[status as keyof AbFailure['repeats']]}`);
  const error = failure.error ? `; last error: ${quote(failure.error)}` : '';
  return `${failure.workload} in ${failure.group}${environment ? ` (${environment})` : ''}: no repeat ran cleanly (${counts.join(', ')}${error}); not compared`;
}

/** The terminal table: significant changes first, then by effect size. Plain text, aligned. */
export function renderTerminal(header: AbReportHeader, analysis: AbAnalysis): string {
  const columns = tableColumns(header);
  const body = rows(analysis).map((r) => r.cells);
  const widths = columns.map((c, i) => Math.max(c.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [
    `A/B ${header.id} (${header.status}), ${header.repeats} repeats a side, ${header.order} order, seed ${header.seed}, on ${header.clusterShapes.join(' / ')}`,
    ...groupLines(header).map((l) => `  ${l}`),
    ...optional(costLine(header)).map((l) => `  cost: ${l}`),
    '',
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
    '',
    summaryLine(analysis),
    ...analysis.failures.map((f) => `FAILED: ${failureLine(f, header.groups)}`),
    ...analysis.notes.map((n) => `note: ${n}`),
    '',
  ].join('\n');
}

/** The failed workloads as a Markdown list under a heading of their own, or nothing. */
export function failureList(analysis: AbAnalysis, groups: readonly AbGroup[]): string[] {
  if (analysis.failures.length === 0) return [];
  // A code span keeps the error's text from being read as Markdown (mentions, links, HTML).
  const code = (error: string) => `\`${error.replace(/`/g, "'")}\``;
  return ['**Failed** (a failure, not a slowdown)', '', ...analysis.failures.map((f) => `- ❌ ${failureLine(f, groups, code)}`), ''];
}

/** The verdict with its traffic-light icon, for Markdown. */
export function verdictWithIcon(test: AbTest): string {
  const label = verdictLabel(test.verdict, test.unit);
  return `${verdictIcon[label] ?? ''} ${label}`.trim();
}

const verdictIcon: Record<string, string> = { better: '🟢', faster: '🟢', worse: '🔴', slower: '🔴', changed: '🟡', 'no clear change': '⚪' };

/** Markdown for a GitHub job summary or PR comment: the same table, with mean ± sd and raw p. */
export function renderMarkdown(header: AbReportHeader, analysis: AbAnalysis): string {
  const mdColumns = ['workload', 'metric', 'vs A', 'A median (mean ± sd)', 'median (mean ± sd)', `ratio to A [${formatLevel(header.confidence)} CI]`, 'A/A band', 'p', 'p adj', 'verdict'];
  const spread = (s: AbTest['baseline'], unit: string) => `${formatValue(s.median, unit)} (${formatValue(s.mean, unit)} ± ${formatValue(s.std, unit)})`;
  const table = rows(analysis).map(({ test, cells }) => {
    return `| ${[cells[0]!, cells[1]!, cells[2]!, spread(test.baseline, test.unit), spread(test.candidate, test.unit), cells[5]!, cells[6]!, formatP(test.p), cells[7]!, verdictWithIcon(test)].map(escapeCell).join(' | ')} |`;
  });
  return [
    `<!-- nightbench-ab: ${header.id} -->`,
    `### A/B ${header.id}`,
    '',
    ...groupLines(header).map((l) => `- ${escapeCell(l)}`),
    `- ${header.repeats} repeats a side, ${header.order} order, seed ${header.seed}, on ${header.clusterShapes.join(' / ')}; status ${header.status}`,
    ...optional(costLine(header)).map((l) => `- cost: ${l}`),
    `- ${summaryLine(analysis)} (Benjamini-Hochberg at ${header.fdr}; a change must also lie beyond its A/A band)`,
    '',
    ...failureList(analysis, header.groups),
    `| ${mdColumns.join(' | ')} |`,
    `| ${mdColumns.map(() => '---').join(' | ')} |`,
    ...table,
    '',
    ...analysis.notes.map((n) => `> ${escapeCell(n)}`),
    '',
  ].join('\n');
}

/** A line that may be absent, as a list of zero or one. */
export const optional = (line: string | undefined): string[] => (line === undefined ? [] : [line]);

/** Text safe inside a Markdown table cell. */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
