/**
 * The index's sorting and filtering, on the rows the page already holds: no data file, no
 * server. The filter is kept in the address (#status=regressed&metric=...) so a view can be shared.
 *
 * @module
 */
import { markReady } from './dom.js';

const statusOrder = ['regressed', 'failing', 'improved', 'insufficient', 'stable'];
const filterKeys = ['q', 'suite', 'metric', 'status', 'shape'] as const;

function start(): void {
  const form = document.getElementById('filters') as HTMLFormElement;
  const table = document.getElementById('series') as HTMLTableElement;
  const body = table.tBodies[0]!;
  const rows = Array.from(body.rows);
  const shown = document.getElementById('shown')!;
  const empty = document.getElementById('no-match')!;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;

  const apply = () => {
    const wanted = Object.fromEntries(filterKeys.map((k) => [k, field(k).value.trim().toLowerCase()]));
    let count = 0;
    for (const row of rows) {
      const d = row.dataset;
      const visible =
        (!wanted['q'] || (d['workload'] ?? '').toLowerCase().includes(wanted['q'])) &&
        (!wanted['suite'] || d['suite']?.toLowerCase() === wanted['suite']) &&
        (!wanted['metric'] || d['metric']?.toLowerCase() === wanted['metric']) &&
        (!wanted['status'] || d['status'] === wanted['status']) &&
        (!wanted['shape'] || d['shape']?.toLowerCase() === wanted['shape']);
      row.hidden = !visible;
      if (visible) count++;
    }
    shown.textContent = `${count} shown`;
    empty.hidden = count > 0;
    const params = new URLSearchParams(filterKeys.flatMap((k) => (field(k).value ? [[k, field(k).value]] : [])));
    history.replaceState(null, '', params.size ? `#${params}` : location.pathname);
  };

  let sortKey = '';
  let ascending = true;
  const sortBy = (key: string, numeric: boolean) => {
    ascending = sortKey === key ? !ascending : true;
    sortKey = key;
    const value = (row: HTMLTableRowElement) => row.dataset[key] ?? '';
    const compare = (a: HTMLTableRowElement, b: HTMLTableRowElement): number => {
      if (key === 'status') return statusOrder.indexOf(value(a)) - statusOrder.indexOf(value(b));
      if (!numeric) return value(a).localeCompare(value(b));
      // Rows without a number go last whichever way the column is sorted.
      if (value(a) === '' || value(b) === '') return (value(a) === '' ? 1 : 0) - (value(b) === '' ? 1 : 0);
      return Number(value(a)) - Number(value(b));
    };
    const sorted = [...rows].sort((a, b) => {
      const c = compare(a, b);
      const blankLast = numeric && (value(a) === '' || value(b) === '');
      return (blankLast || ascending ? c : -c) || Number(a.dataset['order']) - Number(b.dataset['order']);
    });
    body.append(...sorted);
    table.querySelectorAll('th button').forEach((b) => b.removeAttribute('aria-sort'));
    table.querySelector(`th button[data-sort="${key}"]`)?.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  };

  form.addEventListener('input', apply);
  form.addEventListener('submit', (event) => event.preventDefault());
  table.querySelectorAll<HTMLButtonElement>('th button[data-sort]').forEach((button) =>
    button.addEventListener('click', () => sortBy(button.dataset['sort']!, button.hasAttribute('data-numeric'))),
  );
  document.querySelectorAll<HTMLButtonElement>('[data-filter-status]').forEach((chip) =>
    chip.addEventListener('click', () => {
      const status = field('status');
      status.value = status.value === chip.dataset['filterStatus'] ? '' : chip.dataset['filterStatus']!;
      apply();
    }),
  );
  const initial = new URLSearchParams(location.hash.slice(1));
  for (const key of filterKeys) if (initial.get(key)) field(key).value = initial.get(key)!;
  apply();
  markReady();
}

start();
