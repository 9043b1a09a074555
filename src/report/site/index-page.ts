/**
 * The index: rows come from the index data files (`index-data.ts`), are filtered and sorted as
 * arrays, and only the rows in view (plus a margin) are in the table, with spacer rows standing
 * for the others: 20,000 series cost what 100 do. The filter is kept in the address
 * (#status=regressed&metric=...) so a view can be shared.
 *
 * @module
 */
import { formatChange, formatPercentOneDecimal, formatValue } from '../../format/index.js';
import { partsInOrder } from '../data-parts.js';
import type { IndexDataRow } from '../index-data.js';
import { sitePaths } from '../paths.js';
import { sparkHeight, sparkPath, sparkWidth } from '../spark.js';
import { statusLabels, statusOrder, type IssueRef, type SeriesStatus } from '../types.js';
import { breakableText, el, markReady } from './dom.js';

const filterKeys = ['q', 'suite', 'metric', 'status', 'shape'] as const;
const columns = 10;
/** Rows rendered above and below the visible ones, so a scroll shows rows before the next frame. */
const margin = 40;

interface Row {
  order: number;
  suite: string;
  workload: string;
  metric: string;
  unit: string;
  shape: string;
  variantId: string;
  variantLabel: string;
  status: SeriesStatus;
  note: string | null;
  latestNight: string | null;
  latest: number | null;
  change: number | null;
  noise: number | null;
  spark: string;
  issue: IssueRef | null;
  error: string | null;
}

type SortKey = 'status' | 'suite' | 'workload' | 'metric' | 'shape' | 'latest' | 'change' | 'noise';

function loadRows(): Row[] {
  const rows: Row[] = [];
  for (const { variants, rows: tuples } of partsInOrder(window.NIGHTBENCH_INDEX ?? {})) {
    for (const [suite, workload, metric, unit, variant, status, note, latestNight, latest, change, noise, spark, issue, error] of tuples as IndexDataRow[]) {
      const { id: variantId, clusterShape, label } = variants[variant]!;
      rows.push({ order: rows.length, suite, workload, metric, unit, shape: clusterShape, variantId, variantLabel: label, status, note, latestNight, latest, change, noise, spark, issue, error });
    }
  }
  return rows;
}

function sparkSvg(encoded: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [name, value] of [['class', 'spark'], ['width', `${sparkWidth}`], ['height', `${sparkHeight}`], ['viewBox', `0 0 ${sparkWidth} ${sparkHeight}`], ['aria-hidden', 'true']]) svg.setAttribute(name!, value!);
  const drawn = sparkPath(encoded);
  if (drawn) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', drawn.d);
    const dot = document.createElementNS(ns, 'circle');
    for (const [name, value] of [['cx', drawn.last.x], ['cy', drawn.last.y], ['r', 2]] as const) dot.setAttribute(name, String(value));
    svg.append(path, dot);
  }
  return svg;
}

/** Colour of a change: red where it made things worse, green where better, within noise grey. */
function changeClass(status: SeriesStatus): string {
  if (status === 'regressed') return 'worse';
  if (status === 'improved') return 'better';
  return 'neutral';
}

function renderRow(row: Row): HTMLTableRowElement {
  const tr = el('tr');
  const data: Record<string, string> = { order: `${row.order}`, status: row.status, suite: row.suite, workload: row.workload, metric: row.metric, shape: row.shape };
  Object.assign(tr.dataset, data);
  const badge = el('span', { class: `status status-${row.status}`, ...(row.status !== 'stable' && row.note ? { title: row.note } : {}) }, statusLabels[row.status]);
  const workload = el('td', {}, el('a', { href: sitePaths.workloadVariant(row.suite, row.workload, row.variantId) }, ...breakableText(row.workload)));
  if (row.error) workload.append(el('div', { class: 'error-tail', title: row.error }, row.error.split('\n').at(-1) ?? ''));
  const issue = !row.issue ? '' : row.issue.href ? el('a', { class: row.issue.file ? 'issue issue-file' : 'issue', href: row.issue.href }, row.issue.label) : row.issue.label;
  tr.append(
    el('td', {}, badge),
    el('td', {}, row.suite),
    workload,
    el('td', {}, row.metric || el('span', { class: 'muted' }, 'no values')),
    el('td', { class: 'variant' }, row.variantLabel),
    el('td', { class: 'num', title: row.latestNight ?? '' }, row.latest === null ? '—' : formatValue(row.latest, row.unit)),
    row.change === null ? el('td', { class: 'num muted' }, '—') : el('td', { class: `num change ${changeClass(row.status)}` }, formatChange(row.change)),
    el('td', { class: 'num' }, row.noise === null ? '—' : formatPercentOneDecimal(row.noise)),
    el('td', {}, sparkSvg(row.spark)),
    el('td', {}, issue),
  );
  return tr;
}

function spacer(height: number): HTMLTableRowElement {
  const cell = el('td', { colspan: `${columns}` });
  cell.style.cssText = `height: ${height}px; padding: 0; border: 0`;
  return el('tr', { class: 'spacer', 'aria-hidden': 'true' }, cell);
}

function start(): void {
  const form = document.getElementById('filters') as HTMLFormElement;
  const table = document.getElementById('series') as HTMLTableElement;
  const body = table.tBodies[0]!;
  const shown = document.getElementById('shown')!;
  const empty = document.getElementById('no-match')!;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  const rows = loadRows();
  let matching = rows;
  let window_ = { first: -1, last: -1 };
  // Measured from the rows drawn; a first guess until then.
  let rowHeight = 37;

  const draw = (force: boolean) => {
    const top = body.getBoundingClientRect().top;
    const visibleFrom = Math.max(0, Math.floor(-top / rowHeight));
    const first = Math.max(0, visibleFrom - margin);
    const last = Math.min(matching.length, visibleFrom + Math.ceil(window.innerHeight / rowHeight) + margin);
    if (!force && first === window_.first && last === window_.last) return;
    window_ = { first, last };
    const drawn = matching.slice(first, last).map(renderRow);
    body.replaceChildren(...(first > 0 ? [spacer(first * rowHeight)] : []), ...drawn, ...(last < matching.length ? [spacer((matching.length - last) * rowHeight)] : []));
    if (drawn.length > 0) rowHeight = drawn.reduce((sum, tr) => sum + tr.getBoundingClientRect().height, 0) / drawn.length || rowHeight;
  };

  const apply = () => {
    const wanted = Object.fromEntries(filterKeys.map((k) => [k, field(k).value.trim().toLowerCase()]));
    matching = sorted(rows.filter((row) =>
      (!wanted['q'] || row.workload.toLowerCase().includes(wanted['q'])) &&
      (!wanted['suite'] || row.suite.toLowerCase() === wanted['suite']) &&
      (!wanted['metric'] || row.metric.toLowerCase() === wanted['metric']) &&
      (!wanted['status'] || row.status === wanted['status']) &&
      (!wanted['shape'] || row.shape.toLowerCase() === wanted['shape']),
    ));
    shown.textContent = `${matching.length} shown`;
    empty.hidden = matching.length > 0;
    draw(true);
    const params = new URLSearchParams(filterKeys.flatMap((k) => (field(k).value ? [[k, field(k).value]] : [])));
    history.replaceState(null, '', params.size ? `#${params}` : location.pathname);
  };

  let sortKey: SortKey | '' = '';
  let ascending = true;
  const sorted = (list: Row[]): Row[] => {
    if (!sortKey) return list;
    const key = sortKey;
    if (key === 'latest' || key === 'change' || key === 'noise') {
      // Rows without a number go last whichever way the column is sorted.
      return list.sort((a, b) => {
        const x = a[key];
        const y = b[key];
        if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0) || a.order - b.order;
        return (ascending ? x - y : y - x) || a.order - b.order;
      });
    }
    const compare = key === 'status' ? (a: Row, b: Row) => statusOrder.indexOf(a.status) - statusOrder.indexOf(b.status) : (a: Row, b: Row) => a[key].localeCompare(b[key]);
    return list.sort((a, b) => (ascending ? compare(a, b) : -compare(a, b)) || a.order - b.order);
  };
  const sortBy = (key: SortKey) => {
    ascending = sortKey === key ? !ascending : true;
    sortKey = key;
    matching = sorted([...matching]);
    draw(true);
    table.querySelectorAll('th button').forEach((b) => b.removeAttribute('aria-sort'));
    table.querySelector(`th button[data-sort="${key}"]`)?.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  };

  form.addEventListener('input', apply);
  form.addEventListener('submit', (event) => event.preventDefault());
  table.querySelectorAll<HTMLButtonElement>('th button[data-sort]').forEach((button) => button.addEventListener('click', () => sortBy(button.dataset['sort'] as SortKey)));
  document.querySelectorAll<HTMLButtonElement>('[data-filter-status]').forEach((chip) =>
    chip.addEventListener('click', () => {
      const status = field('status');
      status.value = status.value === chip.dataset['filterStatus'] ? '' : chip.dataset['filterStatus']!;
      apply();
    }),
  );
  let frame = 0;
  const onViewChange = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), draw(false)));
  };
  window.addEventListener('scroll', onViewChange, { passive: true });
  window.addEventListener('resize', onViewChange);
  const initial = new URLSearchParams(location.hash.slice(1));
  for (const key of filterKeys) if (initial.get(key)) field(key).value = initial.get(key)!;
  apply();
  markReady();
}

start();
