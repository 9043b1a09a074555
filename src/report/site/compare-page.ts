/**
 * The compare page in the browser: reads the selection from the address (or proposes the last
 * two nights), computes the table with the same module the tests use, and redraws on every
 * change of sets, filter or sort. A click on a row shows both sets' raw repeats.
 *
 * @module
 */
import { formatChange, formatCliffsDelta, formatP, formatRatioInterval, formatValue, shortSha } from '../../format/index.js';
import { compareInputs, machineNightsAcross, nightsNeeded, parseSelection, selectionFragment, unpackNightValues, type CompareData, type CompareNight, type CompareSubject, type Selection, type SetChoice } from '../compare/selection.js';
import { compareStatuses, compareTable, ratioInterval, type CompareInput, type CompareRow } from '../compare/table.js';
import { partsInOrder } from '../data-parts.js';
import { sitePaths } from '../paths.js';
import { breakableText, el, markReady } from './dom.js';
import './globals.js';

/** Rows drawn at once; the filters narrow a larger table. */
const maxRows = 500;
const statusClass: Record<string, string> = { regression: 'worse', improvement: 'better' };

/** Night files loaded at once in the background (`prefetchNights`): few enough to leave the page responsive. */
const prefetchBatch = 4;
/** The newest nights loaded in the background; older ones load when a selection needs them (a year of 20,000 series is 66 MB of files). */
const prefetchNewest = 60;

/** Nights of the base set when the page opens without a selection: detection's default window. */
const defaultBaseNights = 7;

/** Every row's interval comes from this seed (and its key), so a shared link shows the same numbers. */
const seed = 1;

/** Intervals of the current selection already drawn, by row key: a re-sort or a filter draws them again without resampling. */
const intervals = new Map<string, string>();
/** The row each interval cell waiting to come into view belongs to. */
const pendingIntervals = new WeakMap<Element, CompareInput>();

function formatInterval(input: CompareInput): string {
  let text = intervals.get(input.key);
  if (text === undefined) {
    const interval = ratioInterval(input, seed);
    intervals.set(input.key, (text = interval ? formatRatioInterval(interval, false) : '—'));
  }
  return text;
}

/**
 * Fills an interval cell once it scrolls into view. Its bootstrap (1,000 resamples) is most of a
 * row's cost: for the 500 rows drawn at once it took 1.6 s, which the table's answer to a change
 * of selection does not wait for; the rows in view are filled within a frame.
 */
const intervalCells = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const input = pendingIntervals.get(entry.target);
    intervalCells.unobserve(entry.target);
    if (input) entry.target.textContent = formatInterval(input);
  }
});

/** The interval cell of a row: drawn now when known, else when it comes into view. */
function intervalCell(input: CompareInput): HTMLTableCellElement {
  const known = intervals.get(input.key);
  const cell = el('td', { class: 'num interval' }, known ?? '…');
  if (known === undefined) {
    pendingIntervals.set(cell, input);
    intervalCells.observe(cell);
  }
  return cell;
}

interface Line {
  subject: CompareSubject;
  input: CompareInput;
  row: CompareRow;
}

function start(data: CompareData): void {
  const form = document.getElementById('compare') as HTMLFormElement;
  const filters = document.getElementById('filters') as HTMLFormElement;
  const table = document.getElementById('compare-table') as HTMLTableElement;
  const body = table.tBodies[0]!;
  const shown = document.getElementById('shown')!;
  const empty = document.getElementById('no-rows')!;
  const machineNote = document.getElementById('machine-note')!;
  const field = (f: HTMLFormElement, name: string) => f.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  let lines: Line[] = [];
  let sort = { key: 'status', descending: false };

  for (const side of ['base', 'new']) {
    const select = field(form, `${side}-commit`) as HTMLSelectElement;
    for (const c of data.commits) select.append(el('option', { value: `${c.repo}@${c.sha}` }, `${c.repo} ${shortSha(c.sha)} (${data.nights[c.nights[0]!]})`));
  }
  for (const report of data.ab) (field(form, 'ab') as HTMLSelectElement).append(el('option', { value: report.id }, `${report.title} (${report.baseline} vs ${report.candidate})`));
  for (const metric of [...new Set(data.series.map((s) => s.metric))].sort()) (field(filters, 'metric') as HTMLSelectElement).append(el('option', { value: metric }, metric));
  if (data.ab.length === 0) (field(form, 'mode') as HTMLSelectElement).options[1]!.disabled = true;

  const readChoice = (side: string): SetChoice => {
    const kind = field(form, `${side}-kind`).value;
    if (kind === 'range') return { kind, from: field(form, `${side}-from`).value, to: field(form, `${side}-to`).value };
    if (kind === 'commit') {
      const value = field(form, `${side}-commit`).value;
      const at = value.lastIndexOf('@');
      return { kind, repo: value.slice(0, at), sha: value.slice(at + 1) };
    }
    return { kind: 'night', night: field(form, `${side}-night`).value };
  };
  const writeChoice = (side: string, choice: SetChoice) => {
    field(form, `${side}-kind`).value = choice.kind;
    if (choice.kind === 'night') field(form, `${side}-night`).value = choice.night;
    if (choice.kind === 'range') {
      field(form, `${side}-from`).value = choice.from;
      field(form, `${side}-to`).value = choice.to;
    }
    if (choice.kind === 'commit') {
      const match = data.commits.find((c) => c.repo === choice.repo && c.sha.startsWith(choice.sha));
      if (match) field(form, `${side}-commit`).value = `${match.repo}@${match.sha}`;
    }
  };
  const readSelection = (): Selection =>
    field(form, 'mode').value === 'ab' ? { kind: 'ab', id: field(form, 'ab').value } : { kind: 'nightly', base: readChoice('base'), new: readChoice('new') };
  const showFields = () => {
    const mode = field(form, 'mode').value;
    form.querySelectorAll<HTMLElement>('[data-mode]').forEach((node) => (node.hidden = node.dataset['mode'] !== mode));
    for (const side of ['base', 'new']) {
      const kind = field(form, `${side}-kind`).value;
      document.querySelectorAll<HTMLElement>(`#set-${side} [data-for]`).forEach((node) => (node.hidden = node.dataset['for'] !== kind));
    }
  };

  /** Each night's value file, loading or loaded, as a script element (fetch() fails on file://). */
  const nightFiles = new Map<string, Promise<void>>();
  const loadNight = (night: string) => {
    let loading = nightFiles.get(night);
    if (!loading) {
      nightFiles.set(night, (loading = new Promise<void>((resolve) => {
        const script = el('script', { src: sitePaths.compareNight(night) });
        script.addEventListener('load', () => resolve());
        script.addEventListener('error', () => resolve());
        document.body.append(script);
      })));
    }
    return loading;
  };
  const loadNights = (indices: number[]) => Promise.all(indices.map((i) => loadNight(data.nights[i]!)));
  /**
   * Once the first table is drawn, the other recent nights' files load in the background, newest
   * first and a few at a time: a change of selection then finds its nights loaded (loading 7 of them
   * was most of a change at 20,000 series, 300-400 ms against 170 ms for the table alone).
   */
  const prefetchNights = async () => {
    const rest = data.nights.slice(-prefetchNewest).reverse();
    for (let at = 0; at < rest.length; at += prefetchBatch) await Promise.all(rest.slice(at, at + prefetchBatch).map(loadNight));
  };
  /** Each loaded night, its values unpacked once (the file holds them packed). */
  const unpacked = new Map<number, CompareNight>();
  const loadedNight = (i: number): CompareNight | undefined => {
    const known = unpacked.get(i);
    if (known) return known;
    const stored = window.NIGHTBENCH_COMPARE_NIGHTS?.[data.nights[i]!];
    if (!stored) return undefined;
    const night = { runs: stored.runs, values: unpackNightValues(stored.values) };
    unpacked.set(i, night);
    return night;
  };
  let pending = 0;
  /** Recomputes the table; `data-state` on the table says when it is "ready" (tests and the benchmark wait for it). */
  const compute = async () => {
    const started = performance.now();
    const ticket = ++pending;
    table.dataset['state'] = 'loading';
    const selection = readSelection();
    await loadNights(nightsNeeded(data, selection));
    if (ticket !== pending) return;
    const { subjects, inputs } = compareInputs(data, selection, loadedNight);
    const rows = compareTable(inputs, {});
    lines = rows.map((row, i) => ({ subject: subjects[i]!, input: inputs[i]!, row }));
    const machine = machineNightsAcross(data, selection);
    machineNote.hidden = machine.length === 0;
    machineNote.textContent = machine.length === 0 ? '' : `The machine, not the code, moved on ${machine.map((m) => `${m.night} (${m.reason})`).join('; ')}: inside or between the two sets, so a change here may be the machine's.`;
    intervals.clear();
    render();
    table.dataset['ms'] = (performance.now() - started).toFixed(1);
    // The address follows the drawn table in a task of its own: replaceState took 36-63 ms of a
    // change at 20,000 series (a profile of bench/report-browser.ts's page), and the table need
    // not wait for it to be painted.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (ticket !== pending) return;
    writeAddress();
    table.dataset['state'] = 'ready';
  };
  /** The selection and the filters, so the address shares exactly this view. */
  const writeAddress = () => {
    const filterParams = ['q', 'metric', 'status'].flatMap((k) => (field(filters, k).value ? [`${k}=${encodeURIComponent(field(filters, k).value)}`] : []));
    history.replaceState(null, '', `#${[selectionFragment(readSelection()), ...filterParams].join('&')}`);
  };

  const sortValue = (line: Line): number | string => {
    const { row, subject } = line;
    switch (sort.key) {
      case 'status': return compareStatuses.indexOf(row.status);
      case 'workload': return subject.workload;
      case 'metric': return subject.metric;
      case 'base': return row.baseMedian ?? -Infinity;
      case 'new': return row.newMedian ?? -Infinity;
      case 'change': return row.change === undefined ? -Infinity : Math.abs(row.change);
      case 'p': return row.pAdjusted ?? 2;
      default: return row.cliffsDelta === undefined ? -Infinity : Math.abs(row.cliffsDelta);
    }
  };

  const render = () => {
    const q = field(filters, 'q').value.trim().toLowerCase();
    const metric = field(filters, 'metric').value;
    const status = field(filters, 'status').value;
    const visible = lines.filter((l) => (!q || l.subject.workload.toLowerCase().includes(q)) && (!metric || l.subject.metric === metric) && (!status || l.row.status === status));
    const direction = sort.descending ? -1 : 1;
    visible.sort((a, b) => {
      const x = sortValue(a);
      const y = sortValue(b);
      const order = typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number);
      return direction * order || a.subject.workload.localeCompare(b.subject.workload) || a.subject.metric.localeCompare(b.subject.metric);
    });
    intervalCells.disconnect();
    body.replaceChildren(...visible.slice(0, maxRows).map(rowElement));
    shown.textContent = visible.length > maxRows ? `${maxRows} of ${visible.length} shown (narrow the filters)` : `${visible.length} shown`;
    empty.hidden = visible.length > 0;
    table.querySelectorAll<HTMLButtonElement>('th button').forEach((b) => (b.dataset['sort'] === sort.key ? b.setAttribute('aria-sort', sort.descending ? 'descending' : 'ascending') : b.removeAttribute('aria-sort')));
  };

  const rowElement = (line: Line): HTMLTableRowElement => {
    const { row, subject } = line;
    const value = (v: number | undefined) => (v === undefined ? '—' : formatValue(v, subject.unit));
    const workload = subject.href ? el('a', { href: subject.href }, ...breakableText(subject.workload)) : el('span', {}, ...breakableText(subject.workload));
    const tr = el('tr', { 'data-status': row.status, 'data-workload': subject.workload, 'data-metric': subject.metric, class: 'expandable', title: row.reason },
      el('td', {}, el('span', { class: `compare-status compare-${row.status.replaceAll(' ', '-')}` }, row.status)),
      el('td', {}, workload),
      el('td', {}, subject.metric),
      el('td', { class: 'variant' }, subject.variant ?? ''),
      el('td', { class: 'num' }, value(row.baseMedian)),
      el('td', { class: 'num' }, value(row.newMedian)),
      el('td', { class: `num change ${statusClass[row.status] ?? 'neutral'}` }, row.change === undefined ? '—' : formatChange(row.change)),
      intervalCell(line.input),
      el('td', { class: 'num' }, row.pAdjusted === undefined ? '—' : formatP(row.pAdjusted)),
      el('td', { class: 'num' }, row.cliffsDelta === undefined ? '—' : formatCliffsDelta(row.cliffsDelta)));
    tr.addEventListener('click', (event) => {
      if ((event.target as HTMLElement).closest('a')) return;
      const next = tr.nextElementSibling as HTMLElement | null;
      if (next?.classList.contains('repeats')) return void next.remove();
      const list = (values: readonly number[]) => (values.length === 0 ? 'none' : values.map((v) => formatValue(v, subject.unit)).join(', '));
      tr.after(el('tr', { class: 'repeats' }, el('td', { colspan: '10' },
        el('div', { class: 'base-repeats' }, `base (${line.input.base.length}): ${list(line.input.base)}`),
        el('div', { class: 'new-repeats' }, `new (${line.input.new.length}): ${list(line.input.new)}`),
        el('div', { class: 'muted' }, row.reason))));
    });
    return tr;
  };

  const initial = parseSelection(location.hash);
  const last = data.nights.at(-1) ?? '';
  // Opened without a selection: the last night against the week before it, as detection compares
  // them. Night against night holds too few repeats for the rank test (3 against 3: p >= 0.1).
  const weekBefore = data.nights.slice(-1 - defaultBaseNights, -1);
  writeChoice('base', initial?.kind === 'nightly' ? initial.base : { kind: 'range', from: weekBefore[0] ?? last, to: weekBefore.at(-1) ?? last });
  writeChoice('new', initial?.kind === 'nightly' ? initial.new : { kind: 'night', night: last });
  if (initial?.kind === 'ab') {
    field(form, 'mode').value = 'ab';
    field(form, 'ab').value = initial.id;
  }
  const params = new URLSearchParams(location.hash.slice(1));
  for (const k of ['q', 'metric', 'status']) if (params.get(k)) field(filters, k).value = params.get(k)!;
  showFields();
  form.addEventListener('change', () => {
    showFields();
    void compute();
  });
  filters.addEventListener('input', () => {
    render();
    writeAddress();
  });
  table.querySelectorAll<HTMLButtonElement>('th button').forEach((button) =>
    button.addEventListener('click', () => {
      const key = button.dataset['sort']!;
      sort = { key, descending: sort.key === key ? !sort.descending : key !== 'status' && key !== 'workload' && key !== 'metric' && key !== 'p' };
      render();
    }),
  );
  void compute().then(() => {
    markReady();
    void prefetchNights();
  });
}

const data = window.NIGHTBENCH_COMPARE;
if (data) {
  // The series come in data files of about 1 MB each; the page reads them as one list.
  data.series = partsInOrder(window.NIGHTBENCH_COMPARE_SERIES ?? {}).flat();
  start(data);
}
