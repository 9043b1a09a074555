/**
 * The compare page's markup: the two sets' pickers, the filters and an empty table the client
 * script fills from the compare data file (src/report/site/compare-page.ts). Pure.
 *
 * @module
 */
import { compareStatuses } from './compare/table.js';
import { sitePaths } from './paths.js';
import { html, layout } from './render.js';

const side = (name: 'base' | 'new', label: string) => html`<fieldset class="set" id="set-${name}">
  <legend>${label}</legend>
  <label>by <select name="${name}-kind"><option value="night">night</option><option value="range">date range</option><option value="commit">commit</option></select></label>
  <label data-for="night">night <input type="date" name="${name}-night"></label>
  <label data-for="range">from <input type="date" name="${name}-from"></label>
  <label data-for="range">to <input type="date" name="${name}-to"></label>
  <label data-for="commit">commit <select name="${name}-commit"></select></label>
</fieldset>`;

export function renderComparePage(generatedAt: string, seriesParts: number): string {
  const body = html`
<h1>Compare</h1>
<p class="muted">Two sets of runs side by side: per workload and metric, both medians, the change, a bootstrap 95% interval of the ratio of medians, the Mann-Whitney p-value adjusted over the table (Benjamini-Hochberg), Cliff's delta (how often one set's repeats beat the other's, from -1 to 1) and a status: a significant change beyond the noise band (the A/B test's A/A band, or twice the series' night-to-night noise) is a regression or an improvement by the metric's direction; a significant one inside it is within noise; sets too small for the test to reach significance whatever they hold (a night of 3 repeats against another) say too few values. It opens on the last night against the week before it. The address keeps the selection: copy it to share the comparison.</p>
<form class="compare-form" id="compare">
  <label>Compare <select name="mode"><option value="nightly">nightly runs</option><option value="ab">an A/B test's groups</option></select></label>
  <div class="sets" data-mode="nightly">${side('base', 'Base')}${side('new', 'New')}</div>
  <label data-mode="ab">A/B test <select name="ab"></select></label>
</form>
<p class="machine-note" id="machine-note" hidden></p>
<form class="filters" id="filters" role="search">
  <label>Search <input type="search" name="q" placeholder="workload name"></label>
  <label>Metric <select name="metric"><option value="">all</option></select></label>
  <label>Status <select name="status"><option value="">all</option>${compareStatuses.map((s) => html`<option value="${s}">${s}</option>`)}</select></label>
  <output id="shown" for="filters"></output>
</form>
<table class="compare" id="compare-table">
<thead><tr>
  <th><button type="button" data-sort="status">Status</button></th>
  <th><button type="button" data-sort="workload">Workload</button></th>
  <th><button type="button" data-sort="metric">Metric</button></th>
  <th>Cluster · environment</th>
  <th class="num"><button type="button" data-sort="base">Base median</button></th>
  <th class="num"><button type="button" data-sort="new">New median</button></th>
  <th class="num"><button type="button" data-sort="change">Change</button></th>
  <th class="num">Ratio of medians (95% interval)</th>
  <th class="num"><button type="button" data-sort="p">p (adjusted)</button></th>
  <th class="num"><button type="button" data-sort="delta">Cliff's delta</button></th>
</tr></thead>
<tbody></tbody>
</table>
<p class="empty" id="no-rows" hidden>No workload has values in these sets.</p>`;
  return layout({ path: sitePaths.compare, title: 'Compare', section: 'compare', generatedAt, body, scripts: [sitePaths.compareData, ...Array.from({ length: seriesParts }, (_, part) => sitePaths.compareSeries(part)), sitePaths.asset('compare.js')] });
}
