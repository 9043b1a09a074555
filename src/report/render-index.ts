/**
 * The index page: every series' latest value, change vs the trailing week, status, noise and a
 * sparkline. Rows carry their sort and filter keys as data attributes, so the client script
 * sorts and filters without any data file and the table reads fine without script. Pure.
 *
 * @module
 */
import { formatChange, formatValue } from '../format/index.js';
import { sitePaths } from './paths.js';
import { html, layout, sparkline, statusBadge, type Html } from './render.js';
import { statusLabels, type IndexPage, type IndexRow, type SeriesStatus } from './types.js';

const statuses = Object.keys(statusLabels) as SeriesStatus[];

/** Machine nights shown to whoever reads a change: the machine, not the code, moved them. */
const listedMachineNights = 5;

function machineNightsNote(page: IndexPage) {
  const nights = page.machineNights ?? [];
  if (nights.length === 0) return html``;
  return html`<p class="machine-nights"><strong>machine</strong> nights (the machine, not the code, moved them; their regressions waited a night before being filed): ${nights.slice(0, listedMachineNights).map((m, i) => html`${i > 0 ? ', ' : ''}<span title="${m.reason}">${m.night}</span>`)}${nights.length > listedMachineNights ? ` and ${nights.length - listedMachineNights} earlier` : ''}</p>`;
}

export function renderIndex(page: IndexPage): string {
  const counts = new Map<SeriesStatus, number>();
  for (const row of page.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const options = (values: string[]) => values.map((v) => html`<option value="${v}">${v}</option>`);
  const body = html`
<h1>Nightly history</h1>
<p class="summary">${page.rows.length} series from ${new Set(page.rows.map((r) => `${r.suite}\u0000${r.workload}`)).size} workloads${statuses.map((s) =>
    counts.get(s) ? html` · <button type="button" class="chip status-${s}" data-filter-status="${s}">${counts.get(s)!} ${statusLabels[s]}</button>` : html``,
  )}</p>
${machineNightsNote(page)}
<form class="filters" id="filters" role="search">
  <label>Search <input type="search" name="q" placeholder="workload name"></label>
  <label>Suite <select name="suite"><option value="">all</option>${options(page.suites)}</select></label>
  <label>Metric <select name="metric"><option value="">all</option>${options(page.metrics)}</select></label>
  <label>Status <select name="status"><option value="">all</option>${statuses.map((s) => html`<option value="${s}">${statusLabels[s]}</option>`)}</select></label>
  <label>Cluster shape <select name="shape"><option value="">all</option>${options(page.clusterShapes)}</select></label>
  <output id="shown" for="filters">${page.rows.length} shown</output>
</form>
<table class="series" id="series">
<thead><tr>
  <th><button type="button" data-sort="status">Status</button></th>
  <th><button type="button" data-sort="suite">Suite</button></th>
  <th><button type="button" data-sort="workload">Workload</button></th>
  <th><button type="button" data-sort="metric">Metric</button></th>
  <th><button type="button" data-sort="shape">Cluster · environment</button></th>
  <th class="num"><button type="button" data-sort="latest" data-numeric>Latest</button></th>
  <th class="num" title="latest nightly median against the trailing week's; for an open regression, against the level before it"><button type="button" data-sort="change" data-numeric>Change</button></th>
  <th class="num"><button type="button" data-sort="noise" data-numeric>Noise</button></th>
  <th>Trend</th>
  <th>Issue</th>
</tr></thead>
<tbody>
${page.rows.map((row, i) => indexRow(row, i))}
</tbody>
</table>
<p class="empty" id="no-match" hidden>No series matches these filters.</p>`;
  return layout({ path: sitePaths.index, title: 'Nightly history', section: 'index', generatedAt: page.generatedAt, body, scripts: [sitePaths.asset('index.js')] });
}

function indexRow(row: IndexRow, order: number): Html {
  const change = row.change === undefined ? html`<td class="num muted">—</td>` : html`<td class="num change ${changeClass(row)}">${formatChange(row.change)}</td>`;
  return html`<tr data-order="${order}" data-status="${row.status}" data-suite="${row.suite}" data-workload="${row.workload}" data-metric="${row.metric}" data-shape="${row.variant.clusterShape}" data-latest="${row.latest ?? ''}" data-change="${row.change ?? ''}" data-noise="${row.noise ?? ''}">
<td>${statusBadge(row.status, row.status === 'stable' ? undefined : row.statusNote)}</td>
<td>${row.suite}</td>
<td><a href="${row.href}">${row.workload}</a>${row.error ? html`<div class="error-tail" title="${row.error}">${row.error.split('\n').at(-1) ?? ''}</div>` : ''}</td>
<td>${row.metric || html`<span class="muted">no values</span>`}</td>
<td class="variant">${row.variant.label}</td>
<td class="num" title="${row.latestNight ?? ''}">${row.latest === undefined ? '—' : formatValue(row.latest, row.unit)}</td>
${change}
<td class="num">${row.noise === undefined ? '—' : `${(row.noise * 100).toFixed(1)}%`}</td>
<td>${sparkline(row.spark)}</td>
<td>${row.issue ? (row.issue.href ? html`<a class="issue${row.issue.file ? ' issue-file' : ''}" href="${row.issue.href}">${row.issue.label}</a>` : row.issue.label) : ''}</td>
</tr>
`;
}

/** Colour of a change: red where it made things worse, green where better, within noise grey. */
function changeClass(row: IndexRow): string {
  if (row.status === 'regressed') return 'worse';
  if (row.status === 'improved') return 'better';
  return 'neutral';
}
