/**
 * The index page: every series' latest value, change vs the trailing window, status, noise and a
 * sparkline. The page is the frame (summary, filters, the table's head); its script renders the
 * rows from the index data files (`index-data.ts`), only those in view, so 20,000 series open as
 * fast as 200. Pure.
 *
 * @module
 */
import { sitePaths } from './paths.js';
import { html, layout } from './render.js';
import { statusLabels, statusOrder, type IndexPage, type SeriesStatus } from './types.js';

/** Machine nights shown to whoever reads a change: the machine, not the code, moved them. */
const listedMachineNights = 5;

function machineNightsNote(page: IndexPage) {
  const nights = page.machineNights ?? [];
  if (nights.length === 0) return html``;
  return html`<p class="machine-nights"><strong>machine</strong> nights (the machine, not the code, moved them; their regressions waited a night before being filed): ${nights.slice(0, listedMachineNights).map((m, i) => html`${i > 0 ? ', ' : ''}<span title="${m.reason}">${m.night}</span>`)}${nights.length > listedMachineNights ? ` and ${nights.length - listedMachineNights} earlier` : ''}</p>`;
}

/** The index page, loading `dataParts` index data files before its script. */
export function renderIndex(page: IndexPage, dataParts: number): string {
  const counts = new Map<SeriesStatus, number>();
  for (const row of page.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const options = (values: string[]) => values.map((v) => html`<option value="${v}">${v}</option>`);
  const body = html`
<h1>Nightly history</h1>
<p class="summary">${page.rows.length} series from ${new Set(page.rows.map((r) => `${r.suite}\u0000${r.workload}`)).size} workloads${statusOrder.map((s) =>
    counts.get(s) ? html` · <button type="button" class="chip status-${s}" data-filter-status="${s}">${counts.get(s)!} ${statusLabels[s]}</button>` : html``,
  )}</p>
${machineNightsNote(page)}
<form class="filters" id="filters" role="search">
  <label>Search <input type="search" name="q" placeholder="workload name"></label>
  <label>Suite <select name="suite"><option value="">all</option>${options(page.suites)}</select></label>
  <label>Metric <select name="metric"><option value="">all</option>${options(page.metrics)}</select></label>
  <label>Status <select name="status"><option value="">all</option>${statusOrder.map((s) => html`<option value="${s}">${statusLabels[s]}</option>`)}</select></label>
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
  <th class="num" title="latest nightly median against the trailing window's (detection's last results before it); for an open regression, against the level before it"><button type="button" data-sort="change" data-numeric>Change</button></th>
  <th class="num"><button type="button" data-sort="noise" data-numeric>Noise</button></th>
  <th>Trend</th>
  <th>Issue</th>
</tr></thead>
<tbody></tbody>
</table>
<noscript><p class="empty">The series list needs JavaScript; each workload's page is under workloads/.</p></noscript>
<p class="empty" id="no-match" hidden>No series matches these filters.</p>`;
  const scripts = [...Array.from({ length: dataParts }, (_, part) => sitePaths.indexData(part)), sitePaths.asset('index.js')];
  return layout({ path: sitePaths.index, title: 'Nightly history', section: 'index', generatedAt: page.generatedAt, body, scripts });
}
