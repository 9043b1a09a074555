/**
 * The A/B part of the site: the seam for the A/B engineer. An A/B report is a JSON file in
 * `<reports.dir>/ab/` of the shape `abReportSchema` describes (`nightbench ab report` writes
 * them); `nightbench report` validates each, gives it a page under `ab/` and lists it on
 * `ab/index.html`, which the site's "A/B" navigation entry opens. Pure.
 *
 * @module
 */
import { z } from 'zod';
import { formatChange, formatValue } from './format.js';
import { relativeHref, sitePaths } from './paths.js';
import { html, layout } from './render.js';

export const abComparisonSchema = z.strictObject({
  workload: z.string().min(1),
  metric: z.string().min(1),
  unit: z.string(),
  baselineMedian: z.number(),
  candidateMedian: z.number(),
  /** candidate / baseline median, with its confidence interval when there is one. */
  ratio: z.number(),
  low: z.number().optional(),
  high: z.number().optional(),
  p: z.number().min(0).max(1).optional(),
  /** e.g. "faster", "slower", "no change"; shown as given. */
  verdict: z.string().min(1),
});

export const abReportSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().min(1),
  /** ISO 8601; the A/B index lists the newest first. */
  createdAt: z.string().min(1),
  baseline: z.strictObject({ name: z.string().min(1), description: z.string().optional() }),
  candidate: z.strictObject({ name: z.string().min(1), description: z.string().optional() }),
  /** Free text shown above the table (plain text, escaped). */
  summary: z.string().optional(),
  comparisons: z.array(abComparisonSchema),
});

export type AbReport = z.output<typeof abReportSchema>;

const verdictClass = (verdict: string) => (/slower|worse|regress/i.test(verdict) ? 'worse' : /faster|better|improv/i.test(verdict) ? 'better' : 'neutral');

/** The list of A/B reports, newest first. */
export function renderAbIndex(reports: AbReport[], generatedAt: string): string {
  const sorted = [...reports].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const body = html`
<h1>A/B comparisons</h1>
${sorted.length === 0 ? html`<p class="muted">No A/B report yet. <code>nightbench ab</code> writes them to <code>reports/ab/</code>; the next <code>nightbench report</code> publishes them here.</p>` : html`<table class="ab"><thead><tr><th>Created</th><th>Comparison</th><th>Baseline</th><th>Candidate</th><th class="num">Series</th></tr></thead><tbody>
${sorted.map((r) => html`<tr><td>${r.createdAt.slice(0, 16).replace('T', ' ')}</td><td><a href="${relativeHref(sitePaths.abIndex, sitePaths.abReport(r.id))}">${r.title}</a></td><td>${r.baseline.name}</td><td>${r.candidate.name}</td><td class="num">${r.comparisons.length}</td></tr>
`)}</tbody></table>`}`;
  return layout({ path: sitePaths.abIndex, title: 'A/B comparisons', section: 'ab', generatedAt, body });
}

/** One A/B report: what was compared and, per series, the medians, the ratio and the verdict. */
export function renderAbReport(report: AbReport, generatedAt: string): string {
  const path = sitePaths.abReport(report.id);
  const interval = (c: AbReport['comparisons'][number]) => (c.low !== undefined && c.high !== undefined ? `${formatChange(c.low - 1)} … ${formatChange(c.high - 1)}` : '—');
  const body = html`
<p class="crumbs"><a href="${relativeHref(path, sitePaths.abIndex)}">A/B</a></p>
<h1>${report.title}</h1>
<dl class="facts">
  <dt>Baseline</dt><dd>${report.baseline.name}${report.baseline.description ? html` <span class="muted">${report.baseline.description}</span>` : ''}</dd>
  <dt>Candidate</dt><dd>${report.candidate.name}${report.candidate.description ? html` <span class="muted">${report.candidate.description}</span>` : ''}</dd>
  <dt>Created</dt><dd>${report.createdAt}</dd>
</dl>
${report.summary ? html`<p class="ab-summary">${report.summary}</p>` : ''}
<table class="ab"><thead><tr><th>Workload</th><th>Metric</th><th class="num">Baseline</th><th class="num">Candidate</th><th class="num">Change</th><th class="num">95% interval</th><th class="num">p</th><th>Verdict</th></tr></thead><tbody>
${report.comparisons.map((c) => html`<tr><td>${c.workload}</td><td>${c.metric}</td><td class="num">${formatValue(c.baselineMedian, c.unit)}</td><td class="num">${formatValue(c.candidateMedian, c.unit)}</td><td class="num change ${verdictClass(c.verdict)}">${formatChange(c.ratio - 1)}</td><td class="num">${interval(c)}</td><td class="num">${c.p === undefined ? '—' : c.p.toPrecision(2)}</td><td>${c.verdict}</td></tr>
`)}</tbody></table>`;
  return layout({ path, title: report.title, section: 'ab', generatedAt, body });
}
