/**
 * The A/B part of the site: the seam for the A/B engineer. An A/B report is a JSON file in
 * `<reports.dir>/ab/` of the shape `abSitePageSchema` (ab-site-page.ts) describes (`nightbench ab report` writes
 * them); `nightbench report` validates each, gives it a page under `ab/` and lists it on
 * `ab/index.html`, which the site's "A/B" navigation entry opens. Pure.
 *
 * @module
 */
import { formatChangeRange, formatLevel, formatP, formatRatio, formatValue } from '../format/index.js';
import { abTestAnchor, changeLabel, renderAbHeatmap } from './ab-heatmap.js';
import type { AbSitePage } from '../ab/site-page-schema.js';
import { relativeHref, sitePaths } from './paths.js';
import { breakableName, html, layout, type Html } from './render.js';


const verdictClass = (verdict: string): 'worse' | 'better' | 'neutral' => (/slower|worse|regress/i.test(verdict) ? 'worse' : /faster|better|improv/i.test(verdict) ? 'better' : 'neutral');

/** The list of A/B reports, newest first. */
export function renderAbIndex(reports: AbSitePage[], generatedAt: string): string {
  const sorted = [...reports].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const body = html`
<h1>A/B comparisons</h1>
${sorted.length === 0 ? html`<p class="muted">No A/B report yet. <code>nightbench ab</code> writes them to <code>reports/ab/</code>; the next <code>nightbench report</code> publishes them here.</p>` : html`<table class="ab"><thead><tr><th>Created</th><th>Comparison</th><th>Baseline</th><th>Candidate</th><th class="num">Series</th></tr></thead><tbody>
${sorted.map((r) => html`<tr><td>${r.createdAt.slice(0, 16).replace('T', ' ')}</td><td><a href="${relativeHref(sitePaths.abIndex, sitePaths.abReport(r.id))}">${r.title}</a></td><td>${r.baseline.name}</td><td>${r.candidate.name}</td><td class="num">${r.comparisons.length}</td></tr>
`)}</tbody></table>`}`;
  return layout({ path: sitePaths.abIndex, title: 'A/B comparisons', section: 'ab', generatedAt, body });
}

/** One A/B report: what was compared and, per series, the medians, the ratio and the verdict. */
export function renderAbReport(report: AbSitePage, generatedAt: string): string {
  const path = sitePaths.abReport(report.id);
  const interval = (c: AbSitePage['comparisons'][number]) => (c.low !== undefined && c.high !== undefined ? formatChangeRange(c.low, c.high) : '—');
  const body = html`
<p class="crumbs"><a href="${relativeHref(path, sitePaths.abIndex)}">A/B</a></p>
<h1>${report.title}</h1>
<dl class="facts">
  <dt>Baseline</dt><dd>${report.baseline.name}${report.baseline.description ? html` <span class="muted">${report.baseline.description}</span>` : ''}</dd>
  <dt>Candidate</dt><dd>${report.candidate.name}${report.candidate.description ? html` <span class="muted">${report.candidate.description}</span>` : ''}</dd>
  <dt>Created</dt><dd>${report.createdAt}</dd>
  <dt>Compare</dt><dd><a class="compare-link" href="${relativeHref(path, sitePaths.compare)}#ab=${encodeURIComponent(report.id)}">these groups on the Compare page</a> <span class="muted">(filter, sort, repeats)</span></dd>
</dl>
${report.summary ? html`<p class="ab-summary">${report.summary}</p>` : ''}
${report.failures?.length ? html`<h2>Failed</h2>
<p class="muted">A failure, not a slowdown: these workloads have nothing to compare on this side.</p>
<ul class="ab-failures">${report.failures.map((line) => html`<li>${line}</li>`)}</ul>` : ''}
<h2>Overview</h2>
${renderAbHeatmap(report, verdictClass)}
<h2>Tests</h2>
<div class="scroll-x"><table class="ab"><thead><tr><th>Workload</th><th>Metric</th><th class="num">Baseline</th><th class="num">Candidate</th><th>Median, mean ± sd</th><th class="num">Change</th><th class="num">${formatLevel(report.confidence ?? 0.95)} interval</th><th>Ratio against the A/A band</th><th class="num">p (adjusted)</th><th>Verdict</th></tr></thead><tbody>
${report.comparisons.map((c) => html`<tr id="${abTestAnchor(c.workload, c.metric)}"><td>${breakableName(c.workload)}</td><td>${breakableName(c.metric)}</td><td class="num">${formatValue(c.baselineMedian, c.unit)}</td><td class="num">${formatValue(c.candidateMedian, c.unit)}</td><td>${sidesChart(c)}</td><td class="num change ${verdictClass(c.verdict)}">${changeLabel(c)}</td><td class="num">${interval(c)}</td><td>${ratioChart(c)}</td><td class="num">${c.p === undefined ? '—' : formatP(c.p)}</td><td class="verdict">${c.verdict}${c.verdictFigures === undefined ? '' : html`<small>${c.verdictFigures.map((figure) => html`<span>${figure}</span>`)}</small>`}</td></tr>
`)}</tbody></table></div>
${report.comparisons.some((c) => c.baselineValues && c.candidateValues) && html`<h2>Individual runs</h2>
${report.comparisons.flatMap((c) => (c.baselineValues && c.candidateValues ? [html`<details class="ab-runs"><summary>${c.workload} · ${c.metric}</summary><table class="ab"><thead><tr><th>Side</th><th>Values of each repeat, in the order they ran</th></tr></thead><tbody>
<tr><td>${report.baseline.name}</td><td class="num">${c.baselineValues.map((v) => formatValue(v, c.unit)).join(' · ')}</td></tr>
<tr><td>${report.candidate.name}</td><td class="num">${c.candidateValues.map((v) => formatValue(v, c.unit)).join(' · ')}</td></tr>
</tbody></table></details>
`] : []))}`}`;
  return layout({ path, title: report.title, section: 'ab', generatedAt, body });
}

type Comparison = AbSitePage['comparisons'][number];

/**
 * The talk's picture of a test, as inline SVG: per side a bar to the median, a mark at the mean
 * and a whisker of one standard deviation either side of it. Nothing without means.
 */
function sidesChart(c: Comparison): Html | undefined {
  if (c.baselineMean === undefined || c.candidateMean === undefined) return undefined;
  const sides = [
    { label: 'A', median: c.baselineMedian, mean: c.baselineMean, std: c.baselineStd ?? 0, y: 2, fill: '#9aa5b1' },
    { label: 'B', median: c.candidateMedian, mean: c.candidateMean, std: c.candidateStd ?? 0, y: 16, fill: '#3b82c4' },
  ];
  const top = Math.max(...sides.map((s) => Math.max(s.median, s.mean + s.std))) || 1;
  const x = (value: number) => ((Math.max(0, value) / top) * 150).toFixed(1);
  return html`<svg class="ab-bars" width="160" height="30" role="img" aria-label="median bars, mean and standard deviation">${sides.map(
    (s) =>
      html`<rect x="0" y="${s.y}" width="${x(s.median)}" height="10" fill="${s.fill}"><title>${s.label}: median ${formatValue(s.median, c.unit)}, mean ${formatValue(s.mean, c.unit)}, sd ${formatValue(s.std, c.unit)}</title></rect><line x1="${x(s.mean - s.std)}" x2="${x(s.mean + s.std)}" y1="${s.y + 5}" y2="${s.y + 5}" stroke="#111" stroke-width="1.5"/><line x1="${x(s.mean)}" x2="${x(s.mean)}" y1="${s.y}" y2="${s.y + 10}" stroke="#111" stroke-width="2"/>`,
  )}</svg>`;
}

/** The ratio and its interval on a log axis over the shaded A/A band: a change inside it is noise. Nothing without a ratio. */
function ratioChart(c: Comparison): Html | undefined {
  if (c.ratio === undefined) return undefined;
  const points = [c.ratio, c.low, c.high, c.bandLow, c.bandHigh].filter((v): v is number => v !== undefined && v > 0);
  const span = Math.max(...points.map((v) => Math.abs(Math.log(v))), Math.log(1.05));
  const x = (value: number) => (80 + (Math.log(Math.max(value, 1e-9)) / span) * 72).toFixed(1);
  const band = c.bandLow !== undefined && c.bandHigh !== undefined
    ? html`<rect class="ab-band" x="${x(c.bandLow)}" y="2" width="${(Number(x(c.bandHigh)) - Number(x(c.bandLow))).toFixed(1)}" height="18" fill="#e3e8ee"><title>A/A band ${formatChangeRange(c.bandLow, c.bandHigh)}</title></rect>`
    : undefined;
  const interval = c.low !== undefined && c.high !== undefined ? html`<line x1="${x(c.low)}" x2="${x(c.high)}" y1="11" y2="11" stroke="#111" stroke-width="1.5"/>` : undefined;
  return html`<svg class="ab-ratio" width="160" height="22" role="img" aria-label="ratio, interval and A/A band">${band}<line x1="80" x2="80" y1="0" y2="22" stroke="#888" stroke-dasharray="2 2"/>${interval}<circle cx="${x(c.ratio)}" cy="11" r="3.5" fill="#111"><title>ratio ${formatRatio(c.ratio)}</title></circle></svg>`;
}
