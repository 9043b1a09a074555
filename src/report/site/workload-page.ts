/**
 * The per-workload page: one chart per metric of the chosen variant, with every repeat as a
 * point, the nightly median as a line, the trailing-window baseline band, each level of the
 * whole history as a dashed line across its nights, and regression and recovery markers. Hover
 * shows a night's commit and values; a click pins them; dragging zooms every chart at once, and
 * the range controls choose dates.
 *
 * @module
 */
import uPlot from 'uplot';
import { formatValue, shortSha } from '../../format/index.js';
import { fromUnits } from '../format.js';
import { variantParam } from '../paths.js';
import { statusLabels, type CommitTable, type Marker, type MetricSeries, type VariantSeries, type WorkloadPage } from '../types.js';
import { axes, linkedRange, palette, resizeWith, widthOf } from './chart-kit.js';
import { el, externalLink, markReady } from './dom.js';
import './globals.js';

const chartHeight = 260;
const day = 86_400;
const toSeconds = (night: string) => Date.parse(`${night}T00:00:00Z`) / 1000;
const toNight = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

interface Drawn {
  name: string;
  plot: uPlot;
  container: HTMLElement;
  series: MetricSeries;
}

/** The data file holds integers in units of 10^exponent (smaller files); charts want the values. */
function decodeValues(page: WorkloadPage): void {
  for (const variant of page.variants) {
    for (const series of variant.metrics) {
      const decode = (values: (number | null)[]) => values.map((v) => (v === null ? null : fromUnits(v, series.exponent)));
      series.repeats = series.repeats.map(decode);
      series.median = decode(series.median);
      series.baseline = decode(series.baseline);
      series.levels = series.levels.map((segment) => ({ ...segment, level: fromUnits(segment.level, series.exponent) }));
      series.exponent = 0;
    }
  }
}

function start(page: WorkloadPage, commits: CommitTable): void {
  decodeValues(page);
  const form = document.getElementById('controls') as HTMLFormElement;
  const chartsBox = document.getElementById('charts')!;
  const details = document.getElementById('details')!;
  const variantSelect = form.elements.namedItem('variant') as HTMLSelectElement;
  const fromInput = form.elements.namedItem('from') as HTMLInputElement;
  const toInput = form.elements.namedItem('to') as HTMLInputElement;
  let drawn: Drawn[] = [];
  let pinned = false;
  const range = linkedRange((min, max) => {
    fromInput.value = toNight(min);
    toInput.value = toNight(max);
  });

  const showDetails = (variant: VariantSeries, chart: Drawn, index: number) => {
    const night = variant.nights[index];
    if (night === undefined) return;
    const run = commits.runs[variant.runs[index] ?? -1];
    const s = chart.series;
    const values = s.repeats.map((r, i) => (r[index] === null || r[index] === undefined ? null : el('li', {}, `repeat ${i + 1}: ${formatValue(r[index]!, s.unit)}`)));
    const median = s.median[index];
    const baseline = s.baseline[index];
    details.replaceChildren(
      el('h3', {}, `${night} · ${s.metric}`),
      el('ul', { class: 'values' }, ...values,
        median === null || median === undefined ? el('li', { class: 'muted' }, 'no value this night') : el('li', { class: 'median' }, `median: ${formatValue(median, s.unit)}`),
        baseline === null || baseline === undefined ? null : el('li', { class: 'muted', title: 'the shaded band: the median of detection\'s trailing window (its last results before the night, counted in results, not days) ± its threshold, the smallest change that counts; detection also asks the change to stand out of the series\' noise (see the status)' }, `trailing-window median: ${formatValue(baseline, s.unit)}, band ± ${Math.round(s.threshold * 100)}% (detection's threshold)`)),
      ...(run?.commits ?? []).map((c) => {
        const commit = commits.commits[c]!;
        return el('div', { class: 'commit' },
          el('span', { class: 'repo' }, commit.repo), ' ', externalLink(commit.url, shortSha(commit.sha), 'sha'),
          el('div', { class: 'subject' }, commit.subject), el('div', { class: 'author' }, commit.author));
      }),
      ...s.markers.filter((m) => m.night === night).map((m) => el('p', { class: `marker-note ${m.kind}` }, m.label)),
      el('p', { class: 'muted pin-note' }, pinned ? 'pinned: click the chart to release' : 'click to pin'),
    );
  };

  const draw = () => {
    for (const chart of drawn) chart.plot.destroy();
    range.clear();
    chartsBox.replaceChildren();
    const variant = page.variants.find((v) => v.variant.id === variantSelect.value) ?? page.variants[0]!;
    const x = variant.nights.map(toSeconds);
    drawn = variant.metrics.map((series) => {
      const points = series.repeats.reduce((n, r) => n + r.filter((v) => v !== null).length, 0);
      const container = el('div', { class: 'chart-box', 'data-metric': series.metric, 'data-points': String(points) });
      // The id lets an issue link to one chart (#metric-wall_time): the charts exist before the load event, when the browser scrolls to it.
      chartsBox.append(el('section', { class: 'metric', id: `metric-${series.metric}` },
        el('h2', {}, series.metric, el('span', { class: 'unit' }, ` (${series.unit}) `), el('span', { class: `status status-${series.status}`, title: series.statusNote ?? '' }, statusLabels[series.status])),
        container));
      const chart: Drawn = { name: series.metric, plot: undefined as unknown as uPlot, container, series };
      const high = series.baseline.map((b) => (b === null ? null : b * (1 + series.threshold)));
      const low = series.baseline.map((b) => (b === null ? null : b * (1 - series.threshold)));
      const repeatCount = series.repeats.length;
      const format = (v: number, scaleOf?: number) => formatValue(v, series.unit, scaleOf);
      const options: uPlot.Options = {
        width: widthOf(container), height: chartHeight,
        // A series with one value on every night (zero disk time) still gets a visible line at it.
        scales: { x: { time: true }, y: { range: (_u, min, max) => (min === max ? [min - Math.max(1, Math.abs(min) * 0.1), max + Math.max(1, Math.abs(max) * 0.1)] : uPlot.rangeNum(min, max, 0.1, true)) } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { sync: { key: 'nightbench-workload' }, drag: { x: true, y: false } },
        axes: axes(format),
        series: [
          {},
          ...series.repeats.map((_, i) => ({
            label: `repeat ${i + 1}`, stroke: palette[0]!, width: 0, paths: () => null,
            points: { show: true, size: 4, stroke: palette[0]!, fill: `${palette[0]!}88`, width: 1 },
          })),
          { label: 'nightly median', stroke: '#1f2328', width: 1.5, spanGaps: false, points: { show: false } },
          { label: 'band high', stroke: 'rgba(31,111,235,0.25)', width: 1, points: { show: false } },
          { label: 'band low', stroke: 'rgba(31,111,235,0.25)', width: 1, points: { show: false } },
        ],
        bands: [{ series: [repeatCount + 2, repeatCount + 3], fill: 'rgba(31,111,235,0.08)' }],
        hooks: {
          setScale: [(u, key) => range.hook(u, key)],
          setCursor: [(u) => {
            if (!pinned && u.cursor.idx !== null && u.cursor.idx !== undefined && container.matches(':hover')) showDetails(variant, chart, u.cursor.idx);
          }],
          draw: [(u) => {
            placeLevels(u, series, variant.nights);
            placeMarkers(u, series.markers);
          }],
        },
      };
      chart.plot = new uPlot(options, [x, ...series.repeats, series.median, high, low] as uPlot.AlignedData, container);
      chart.plot.over.addEventListener('click', () => {
        pinned = !pinned;
        const idx = chart.plot.cursor.idx;
        if (idx !== null && idx !== undefined) showDetails(variant, chart, idx);
      });
      range.add(chart.plot);
      return chart;
    });
    window.nightbench = { charts: drawn.map(({ name, plot }) => ({ name, plot })) };
    if (x.length > 0) {
      fromInput.value = toNight(x[0]!);
      toInput.value = toNight(x.at(-1)!);
    }
  };

  form.querySelectorAll<HTMLButtonElement>('button[data-days]').forEach((button) =>
    button.addEventListener('click', () => {
      const variant = page.variants.find((v) => v.variant.id === variantSelect.value) ?? page.variants[0]!;
      const first = toSeconds(variant.nights[0] ?? '1970-01-01');
      const last = toSeconds(variant.nights.at(-1) ?? '1970-01-01');
      const days = Number(button.dataset['days']);
      range.set(days > 0 ? Math.max(first, last - days * day) - day / 2 : first - day / 2, last + day / 2);
    }),
  );
  const applyDates = () => {
    const min = Date.parse(`${fromInput.value}T00:00:00Z`) / 1000;
    const max = Date.parse(`${toInput.value}T00:00:00Z`) / 1000;
    if (Number.isFinite(min) && Number.isFinite(max) && max > min) range.set(min - day / 2, max + day / 2);
  };
  fromInput.addEventListener('change', applyDates);
  toInput.addEventListener('change', applyDates);
  // The variant in the address (the index links each row to its own), kept there as it changes so a link shares it.
  const asked = new URLSearchParams(location.search).get(variantParam);
  if (asked !== null && page.variants.some((v) => v.variant.id === asked)) variantSelect.value = asked;
  variantSelect.addEventListener('change', () => {
    const address = new URL(location.href);
    address.searchParams.set(variantParam, variantSelect.value);
    history.replaceState(null, '', address);
    draw();
  });
  resizeWith(() => drawn, chartHeight);
  draw();
  markReady();
}

/**
 * The series' levels: real elements over the plot, like the markers, so each carries its value
 * and nights as a title and a test can find it. Redrawn on every zoom.
 */
function placeLevels(u: uPlot, series: MetricSeries, nights: readonly string[]): void {
  let layer = u.over.querySelector<HTMLElement>('.levels');
  if (!layer) {
    layer = el('div', { class: 'levels' });
    for (const segment of series.levels) {
      const first = nights[segment.start]!;
      const last = nights[segment.end - 1]!;
      layer.append(el('div', {
        class: 'level', 'data-first': first, 'data-last': last, 'data-level': String(segment.level),
        title: `level ${formatValue(segment.level, series.unit)}, nights ${first}..${last}${segment.change ? `; from the level before: ${segment.change}` : ''}`,
      }));
    }
    u.over.append(layer);
  }
  const width = u.over.clientWidth;
  layer.querySelectorAll<HTMLElement>('.level').forEach((node) => {
    const left = Math.max(0, u.valToPos(toSeconds(node.dataset['first']!), 'x'));
    const right = Math.min(width, u.valToPos(toSeconds(node.dataset['last']!), 'x'));
    node.hidden = right < left;
    node.style.left = `${left}px`;
    // A one-night level would have no width: it still shows as a short dash.
    node.style.width = `${Math.max(6, right - left)}px`;
    node.style.top = `${u.valToPos(Number(node.dataset['level']), 'y')}px`;
  });
}

const flags = { recovery: '▼', failed: '✕', incomplete: '◌', 'cut-short': '✂', machine: 'M' } as const;

/** Regression, recovery, failing-night and machine-night markers: real elements over the plot, so they carry a title and a link. */
function placeMarkers(u: uPlot, markers: Marker[]): void {
  let layer = u.over.querySelector<HTMLElement>('.markers');
  if (!layer) {
    layer = el('div', { class: 'markers' });
    for (const marker of markers) {
      const attributes = { class: `marker marker-${marker.kind}${marker.unconfirmed ? ' marker-unconfirmed' : ''}`, 'data-night': marker.night, title: `${marker.night}: ${marker.label}` };
      // GitHub's address, or an issue file of the site (a relative path the build wrote): never a script URL.
      const node = marker.issueUrl && /^(https?:\/\/|\.\.\/)/i.test(marker.issueUrl) ? el('a', { ...attributes, href: marker.issueUrl }) : el('div', attributes);
      // Hollow for an episode never filed because its rerun did not reproduce it.
      const flag = marker.kind === 'regression' ? (marker.unconfirmed ? '△' : '▲') : marker.kind === 'improvement' ? (marker.unconfirmed ? '◇' : '◆') : flags[marker.kind];
      node.append(el('span', { class: 'marker-flag' }, flag));
      layer.append(node);
    }
    u.over.append(layer);
  }
  layer.querySelectorAll<HTMLElement>('.marker').forEach((node) => {
    const left = u.valToPos(toSeconds(node.dataset['night']!), 'x');
    node.hidden = left < 0 || left > u.over.clientWidth;
    node.style.left = `${left}px`;
  });
}

const page = window.NIGHTBENCH_WORKLOAD;
const commits = window.NIGHTBENCH_COMMITS;
if (page && commits) start(page, commits);
