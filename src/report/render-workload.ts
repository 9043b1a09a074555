/**
 * The per-workload page (interactive time series per metric) and the run drill-down page (memory
 * and CPU of every cluster process), one page for every run. The workload page's markup holds its
 * text; the drill-down's script writes the run's from its data file; the charts are drawn by the
 * client scripts from the data files. Pure.
 *
 * @module
 */
import { formatMinutes, formatPercent } from '../format/index.js';
import { relativeHref, sitePaths } from './paths.js';
import { html, layout } from './render.js';
import type { MetricSeries, VariantSeries, WorkloadPage } from './types.js';
import type { BisectRecord } from '../history/bisect-queries.js';

/**
 * What a workload page's markup shows of the page: all but its series' values, which its data
 * file holds. The build hands this, not the page, to the thread that writes the markup
 * (`off-thread.ts`): a whole page cloned into it cost as much as rendering it.
 */
export interface WorkloadPageMarkup extends Pick<WorkloadPage, 'suite' | 'workload' | 'failures' | 'availability' | 'machineNights'> {
  variants: (Pick<VariantSeries, 'variant' | 'drilldowns'> & { metrics: Pick<MetricSeries, 'metric' | 'sensitivity' | 'sensitivityFrom'>[] })[];
}

/** The page's part that its markup shows (`WorkloadPageMarkup`). */
export function workloadPageMarkup(page: WorkloadPage): WorkloadPageMarkup {
  return {
    suite: page.suite, workload: page.workload, failures: page.failures, availability: page.availability, machineNights: page.machineNights,
    variants: page.variants.map(({ variant, drilldowns, metrics }) => ({
      variant, drilldowns, metrics: metrics.map(({ metric, sensitivity, sensitivityFrom }) => ({ metric, sensitivity, sensitivityFrom })),
    })),
  };
}

/** `bisects`: the workload's bisect runs (kind 'bisect', outside every series), newest first. */
export function renderWorkloadPage(page: WorkloadPageMarkup, generatedAt: string, bisects: readonly BisectRecord[] = []): string {
  const path = sitePaths.workloadPage(page.suite, page.workload);
  const links = page.variants.flatMap((v) => v.drilldowns.map((d) => ({ ...d, variant: v.variant.label })));
  const body = html`
<p class="crumbs"><a href="${relativeHref(path, sitePaths.index)}">Index</a> › ${page.suite}</p>
<h1>${page.workload}</h1>
${page.availability ? html`<p class="availability">${page.availability}</p>` : ''}
<form class="controls" id="controls">
  <label>Cluster · environment <select name="variant">${page.variants.map((v) => html`<option value="${v.variant.id}">${v.variant.label}</option>`)}</select></label>
  <span class="range" role="group" aria-label="date range">
    <button type="button" data-days="30">30 d</button><button type="button" data-days="90">90 d</button><button type="button" data-days="365">1 y</button><button type="button" data-days="0">all</button>
  </span>
  <label>from <input type="date" name="from"></label>
  <label>to <input type="date" name="to"></label>
  <span class="hint">drag across a chart to zoom, double-click to reset; click a point to pin its details</span>
</form>
<p class="chart-key" id="chart-key"><span class="key-point"></span> repeat · <span class="key-median"></span> nightly median · <span class="key-band"></span> trailing window (detection's last results before the night) ± threshold · <span class="key-level"></span> level (detection's segmentation of the whole history; hover for its value and nights) · <span class="key-regression">▲</span> regression at its first bad night · <span class="key-improvement">◆</span> improvement · <span class="key-recovery">▼</span> recovery · <span class="key-failed">✕</span> every repeat failed · <span class="key-incomplete">◌</span> some repeats failed · <span class="key-cut-short">✂</span> incomplete: run cut short (repeats shown, not judged) · <span class="key-machine">M</span> machine night (the machine, not the code, moved it)</p>
<div class="workload-layout">
  <div id="charts" class="charts"></div>
  <aside id="details" class="details" aria-live="polite"><p class="muted">Hover a point to see its night, commit and value.</p></aside>
</div>
${sensitivitySection(page)}
${(page.machineNights ?? []).length === 0 ? '' : html`<h2>Machine nights</h2>
<p class="muted">Nights the machine, not the code, moved (a canary or most series shifted together): changes on them are not the commits'.</p>
<table class="machine-nights"><thead><tr><th>Night</th><th>Why</th></tr></thead><tbody>
${page.machineNights!.map((m) => html`<tr><td>${m.night}</td><td>${m.reason}</td></tr>
`)}</tbody></table>`}
<h2>Run drill-downs</h2>
${links.length === 0 ? html`<p class="muted">No run of this workload has stored samples.</p>` : html`<table class="runs"><thead><tr><th>Night</th><th>Cluster · environment</th><th>Run</th></tr></thead><tbody>
${links.map((l) => html`<tr><td><a href="${l.href}">${l.night}</a></td><td>${l.variant}</td><td><code>${l.runId}</code></td></tr>
`)}</tbody></table>`}
<h2>Bisects</h2>
${bisects.length === 0 ? html`<p class="muted">None.</p>` : html`<table class="bisects"><thead><tr><th>Started</th><th>Mode</th><th>Metric</th><th>Issue</th><th>Outcome</th><th>Culprit</th><th>Cluster minutes</th></tr></thead><tbody>
${bisects.map((b) => html`<tr><td>${b.createdAt.slice(0, 16).replace('T', ' ')}</td><td>${b.mode}</td><td>${b.metric}</td><td>${b.issueNumber === undefined ? '-' : `#${b.issueNumber}`}</td><td>${b.outcome ?? b.status}</td><td>${b.culprit ? html`<code>${b.culprit.repo}@${b.culprit.sha.slice(0, 10)}</code>` : '-'}</td><td>${b.clusterSeconds === undefined ? '-' : formatMinutes(b.clusterSeconds)}</td></tr>
`)}</tbody></table>`}
<h2>Failed repeats</h2>
${page.failures.length === 0 ? html`<p class="muted">None.</p>` : html`<table class="failures"><thead><tr><th>Night</th><th>Cluster · environment</th><th>Repeat</th><th>Status</th><th>Error (tail)</th></tr></thead><tbody>
${page.failures.slice(0, 50).map((f) => html`<tr><td>${f.night}</td><td>${f.variant}</td><td>${f.repeat}</td><td>${f.status}</td><td><pre>${f.error}</pre></td></tr>
`)}</tbody></table>${page.failures.length > 50 ? html`<p class="muted">and ${page.failures.length - 50} earlier ones.</p>` : ''}`}`;
  return layout({
    path, title: `${page.workload} (${page.suite})`, section: 'workload', generatedAt, body,
    scripts: [sitePaths.workloadData(page.suite, page.workload), sitePaths.commitData(page.suite), sitePaths.asset('workload.js')],
  });
}

/**
 * What each series of the workload catches at its measured noise and repeats (its minimum
 * detectable effect), so a maintainer knows what a quiet chart means.
 */
function sensitivitySection(page: WorkloadPageMarkup) {
  const rows = page.variants.flatMap((v) => v.metrics.flatMap((m) => (m.sensitivity ? [{ variant: v.variant.label, metric: m.metric, ...m.sensitivity }] : [])));
  const young = page.variants.flatMap((v) => v.metrics.flatMap((m) => (m.sensitivityFrom === undefined ? [] : [m.sensitivityFrom])));
  const youngNote = young.length === 0 ? '' : html`<p class="muted">${rows.length === 0 ? 'Its series are' : `${young.length} more series ${young.length === 1 ? 'is' : 'are'}`} too new at ${young.length === 1 && rows.length > 0 ? 'its level to tell what it catches' : 'their level to tell what they catch'}: that is known from a series' ${young[0]!}th night at its level.</p>`;
  if (rows.length === 0) return html`<h2>Sensitivity</h2>
${youngNote || html`<p class="muted">No series of this workload was judged on the latest night.</p>`}`;
  return html`<h2>Sensitivity</h2>
<p class="muted">The smallest change each series catches at its noise and repeats on the latest night, meant for 80% of the nights it happens. On series whose nights wander together or jump, fewer are caught: 78% on real Firefox series (81% where their nights do neither), where synthetic ones reach 79-89%.</p>
<table class="sensitivity"><thead><tr><th>Cluster · environment</th><th>Metric</th><th class="num">Repeats</th><th class="num">First night</th><th class="num">Within ${rows[0]!.nights} nights</th><th>In words</th></tr></thead><tbody>
${rows.map((r) => html`<tr><td>${r.variant}</td><td>${r.metric}</td><td class="num">${r.repeats}</td><td class="num">${r.oneNight === undefined ? '-' : formatPercent(r.oneNight)}</td><td class="num">${formatPercent(r.withinNights)}</td><td>${r.text}</td></tr>
`)}</tbody></table>
${youngNote}`;
}

/**
 * The drill-down page, one for every run: its script reads the run from the page's address
 * (`drilldownParams`), loads that run's data file and fills in the facts, the repeats' metrics
 * and the charts.
 */
export function renderDrilldownPage(generatedAt: string): string {
  const path = sitePaths.drilldown;
  const body = html`
<p class="crumbs"><a href="${relativeHref(path, sitePaths.index)}">Index</a> › <span id="crumb-suite"></span> › <a id="crumb-workload"></a></p>
<h1 id="title">Run drill-down</h1>
<dl class="facts" id="facts"></dl>
<form class="controls" id="controls">
  <label>Repeat <select name="repeat"></select></label>
</form>
<div id="repeats"></div>
<h2>Memory per process</h2>
<div id="memory" class="chart-box"></div>
<h2>CPU per process</h2>
<div id="cpu" class="chart-box"></div>`;
  return layout({ path, title: 'Run drill-down', section: 'run', generatedAt, body, scripts: [sitePaths.asset('drilldown.js')] });
}
