/**
 * The A/B result as one pull-request comment: workloads that failed first, then significant
 * changes, each with its A/A band, the rest folded away, and a link to the full report. It carries
 * the marker by which a re-run finds the comment and edits it instead of adding another. Pure.
 *
 * @module
 */
import { costLine, escapeCell, failureList, rows, summaryLine, tableColumns, verdictWithIcon, type AbReportHeader, type Row } from './render.js';
import type { AbReport } from './report.js';

/**
 * Hidden in the comment so a re-run finds it again. It is trusted only in a comment by
 * nightbench's own login (see src/issues/github/pull-request-comment.ts), like the issue markers.
 */
export const pullRequestCommentMarker = '<!-- nightbench:ab-pull-request -->';

function table(header: AbReportHeader, tableRows: readonly Row[]): string[] {
  const columns = tableColumns(header);
  return [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...tableRows.map(({ test, cells }) => `| ${[...cells.slice(0, 8), verdictWithIcon(test)].map(escapeCell).join(' | ')} |`),
  ];
}

/** The comment's Markdown; `reportUrl` is where the full report (job summary, artifact) lives. */
export function renderPullRequestComment(report: AbReport, reportUrl?: string): string {
  const { header, analysis } = report;
  const all = rows(analysis);
  const changed = all.filter((r) => r.test.verdict !== 'no clear change');
  const unchanged = all.filter((r) => r.test.verdict === 'no clear change');
  const groups = header.groups.map((g) => `${g.label} = ${escapeCell(g.environment)}`).join(', ');
  return [
    pullRequestCommentMarker,
    `### nightbench A/B ${header.id.slice(0, 8)}: ${summaryLine(analysis)}`,
    '',
    `${groups}; ${header.repeats} repeats a side, status ${header.status}${header.cost ? `; cost: ${costLine(header)}` : ''}. A change counts only when significant (Benjamini-Hochberg at ${header.fdr}) and beyond its A/A band.`,
    '',
    ...failureList(analysis, header.groups),
    ...(changed.length > 0 ? ['**Significant changes**', '', ...table(header, changed)] : ['No significant change.']),
    '',
    ...(unchanged.length > 0 ? [`<details><summary>${unchanged.length} ${unchanged.length === 1 ? 'test' : 'tests'} without a clear change</summary>`, '', ...table(header, unchanged), '', '</details>', ''] : []),
    ...analysis.notes.map((n) => `> ${escapeCell(n)}`),
    ...(analysis.notes.length > 0 ? [''] : []),
    reportUrl ? `[Full report](${reportUrl})` : `Full report: \`nightbench ab report ${header.id.slice(0, 8)}\``,
    '',
  ].join('\n');
}
