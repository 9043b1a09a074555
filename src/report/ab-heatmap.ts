/**
 * The A/B suite at a glance: every test of an A/B report as one cell of a workload x metric
 * heatmap, its colour the change measured in A/A bands (how many times the noise of the baseline
 * against itself the change is), each cell linking to its row of the report. Pure.
 *
 * @module
 */
import { formatChange, formatMultiple, formatValue } from '../format/index.js';
import { breakableName, html, type Html } from './render.js';
import type { AbSitePage } from '../ab/site-page-schema.js';

type Comparison = AbSitePage['comparisons'][number];

/** Beyond this many bands a cell has its full colour. */
const fullColourBands = 3;

/** The row of a test on its report page: the heatmap's cells link here. */
export const abTestAnchor = (workload: string, metric: string) => `test-${encodeURIComponent(`${workload}.${metric}`).replace(/%/g, '_')}`;

/**
 * The change in units of the test's A/A band: log(ratio) / log(band edge on the change's side).
 * 1 means as large as the noise; undefined without a band (or a ratio that is not positive).
 */
export function changeInBands(c: Pick<Comparison, 'ratio' | 'bandLow' | 'bandHigh'>): number | undefined {
  if (c.bandLow === undefined || c.bandHigh === undefined || c.ratio === undefined || !(c.ratio > 0)) return undefined;
  const edge = c.ratio >= 1 ? c.bandHigh : c.bandLow;
  const width = Math.abs(Math.log(edge));
  return width > 0 ? Math.log(c.ratio) / width : undefined;
}

/** The change of a test as a cell reads it: "+14.3%", or both medians when there is no ratio ("0 B → 1.19 GiB"). */
export function changeLabel(c: Pick<Comparison, 'ratio' | 'baselineMedian' | 'candidateMedian' | 'unit'>): string {
  return c.ratio === undefined ? `${formatValue(c.baselineMedian, c.unit)} → ${formatValue(c.candidateMedian, c.unit)}` : formatChange(c.ratio - 1);
}

/** Cell colour: red where the verdict is worse, green where better, grey otherwise, deeper with more bands. */
function cellColour(c: Comparison, bands: number | undefined, tone: 'worse' | 'better' | 'neutral'): string {
  const strength = bands === undefined ? 0.15 : Math.min(1, Math.abs(bands) / fullColourBands);
  const rgb = tone === 'worse' ? '207,34,46' : tone === 'better' ? '26,127,55' : '110,119,129';
  return `rgba(${rgb},${(0.08 + 0.72 * strength).toFixed(2)})`;
}

export function renderAbHeatmap(report: AbSitePage, toneOf: (verdict: string) => 'worse' | 'better' | 'neutral'): Html {
  const workloads = [...new Set(report.comparisons.map((c) => c.workload))].sort();
  const metrics = [...new Set(report.comparisons.map((c) => c.metric))].sort();
  const byCell = new Map(report.comparisons.map((c) => [`${c.workload}\u0000${c.metric}`, c]));
  const cell = (workload: string, metric: string) => {
    const c = byCell.get(`${workload}\u0000${metric}`);
    if (!c) return html`<td class="heat-empty"></td>`;
    const bands = changeInBands(c);
    const tone = toneOf(c.verdict);
    const title = `${workload} · ${metric}: ${changeLabel(c)}${bands === undefined ? ', no A/A band' : `, ${formatMultiple(Math.abs(bands))} A/A bands`} (${c.verdict})`;
    return html`<td class="heat heat-${tone}" style="background:${cellColour(c, bands, tone)}" data-bands="${bands === undefined ? '' : bands.toFixed(2)}" data-verdict="${c.verdict}"><a href="#${abTestAnchor(workload, metric)}" title="${title}">${changeLabel(c)}</a></td>`;
  };
  return html`<table class="heatmap" id="heatmap"><thead><tr><th>Workload</th>${metrics.map((m) => html`<th>${breakableName(m)}</th>`)}</tr></thead><tbody>
${workloads.map((w) => html`<tr data-workload="${w}"><th>${breakableName(w)}</th>${metrics.map((m) => cell(w, m))}</tr>
`)}</tbody></table>
<p class="muted">Each cell: the change of the candidate's median, coloured by its verdict and deeper the more A/A bands it spans (full colour from ${fullColourBands}); a click opens the test below.</p>`;
}
