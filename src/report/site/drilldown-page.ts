/**
 * The run drill-down, one page for every run: the run its address names is loaded from the part of
 * that run's drill-downs that holds its workload, its facts and each repeat's metrics written, and
 * for the chosen repeat every cluster process's memory (RSS) and CPU use over the repeat drawn, from
 * the samples the runner stored.
 *
 * @module
 */
import uPlot from 'uplot';
import { formatValue, shortSha } from '../../format/index.js';
import { drilldownParams, sitePaths } from '../paths.js';
import type { CommitRow, DrilldownPage, DrilldownRepeat } from '../types.js';
import { axes, palette, resizeWith, widthOf } from './chart-kit.js';
import { el, externalLink, markReady } from './dom.js';
import './globals.js';

const chartHeight = 240;

/** The run's facts, its repeats' metrics and the repeat picker, as text. */
function describe(page: DrilldownPage): void {
  document.title = `${page.workload} on ${page.night} · nightbench`;
  document.getElementById('crumb-suite')!.textContent = page.suite;
  const workloadLink = document.getElementById('crumb-workload')!;
  workloadLink.textContent = page.workload;
  workloadLink.setAttribute('href', sitePaths.workloadPage(page.suite, page.workload));
  document.getElementById('title')!.replaceChildren(page.workload, ' ', el('span', { class: 'muted' }, `on ${page.night}`));
  const fact = (term: string, ...detail: (Node | string)[]) => [el('dt', {}, term), el('dd', {}, ...detail)];
  document.getElementById('facts')!.replaceChildren(
    ...fact('Run', el('code', {}, page.runId)),
    ...fact('Cluster · environment', page.variant.label),
    ...(page.machine === undefined ? [] : fact('Machine', page.machine)),
    ...fact('Commits', ...(page.commits.length ? page.commits.map((c) => el('div', {}, commitLine(c))) : [el('span', { class: 'muted' }, 'none recorded')])),
  );
  const select = (document.getElementById('controls') as HTMLFormElement).elements.namedItem('repeat') as HTMLSelectElement;
  select.replaceChildren(...page.repeats.map((r) => el('option', { value: String(r.repeat) }, `${r.repeat} (${r.status})`)));
  document.getElementById('repeats')!.replaceChildren(...page.repeats.map((r, i) => {
    const section = el('section', { class: 'repeat', 'data-repeat': String(r.repeat) },
      el('table', { class: 'metrics' },
        el('thead', {}, el('tr', {}, el('th', {}, 'Metric'), el('th', { class: 'num' }, 'Value'))),
        el('tbody', {}, ...r.metrics.map((m) => el('tr', {}, el('td', {}, m.metric), el('td', { class: 'num' }, formatValue(m.value, m.unit)))))),
      r.error ? el('pre', { class: 'error' }, r.error) : null);
    section.hidden = i > 0;
    return section;
  }));
}

/** A commit: short sha (linked when the repository has a commit URL), subject and author. */
function commitLine(commit: CommitRow): Node {
  return el('span', { class: 'commit' },
    el('span', { class: 'repo' }, commit.repo), ' ', externalLink(commit.url, shortSha(commit.sha), 'sha'), ' ',
    el('span', { class: 'subject' }, commit.subject), ' ', el('span', { class: 'author' }, commit.author));
}

function start(page: DrilldownPage): void {
  describe(page);
  const select = (document.getElementById('controls') as HTMLFormElement).elements.namedItem('repeat') as HTMLSelectElement;
  const boxes = { memory: document.getElementById('memory')!, cpu: document.getElementById('cpu')! };
  let drawn: { name: string; plot: uPlot; container: HTMLElement }[] = [];

  const chart = (container: HTMLElement, repeat: DrilldownRepeat, values: (p: DrilldownRepeat["processes"][number]) => (number | null)[], unit: string, format: (v: number) => string) => {
    // Processes are sampled on the same ticks, but one that started late has fewer: join aligns them.
    const data = uPlot.join(repeat.processes.map((p) => [p.t, values(p)] as uPlot.AlignedData));
    container.dataset['series'] = String(repeat.processes.length);
    const options: uPlot.Options = {
      width: widthOf(container), height: chartHeight,
      scales: { x: { time: false } },
      cursor: { sync: { key: 'nightbench-run' }, drag: { x: true, y: false } },
      legend: { show: true, live: true },
      axes: axes(format, unit),
      series: [
        { label: 'seconds', value: (_u, v) => (v === null ? '—' : `${v.toFixed(1)} s`) },
        ...repeat.processes.map((p, i) => ({
          label: `${p.process} (${p.host})`, stroke: p.process === 'scheduler' ? '#1f2328' : palette[i % palette.length]!, width: 1.5,
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)), points: { show: false },
        })),
      ],
    };
    return new uPlot(options, data, container);
  };

  const draw = () => {
    for (const d of drawn) d.plot.destroy();
    const repeat = page.repeats.find((r) => String(r.repeat) === select.value) ?? page.repeats[0];
    document.querySelectorAll<HTMLElement>('section.repeat').forEach((s) => (s.hidden = s.dataset['repeat'] !== select.value));
    drawn = [];
    if (!repeat || repeat.processes.length === 0) {
      for (const box of Object.values(boxes)) box.replaceChildren(Object.assign(document.createElement('p'), { className: 'muted', textContent: 'No samples were stored for this repeat.' }));
    } else {
      for (const box of Object.values(boxes)) box.replaceChildren();
      drawn = [
        { name: 'memory', container: boxes.memory, plot: chart(boxes.memory, repeat, (p) => p.rssMiB, 'MiB', (v) => `${v.toFixed(0)} MiB`) },
        { name: 'cpu', container: boxes.cpu, plot: chart(boxes.cpu, repeat, (p) => p.cpuCores, 'cores', (v) => v.toFixed(2)) },
      ];
    }
    window.nightbench = { charts: drawn.map(({ name, plot }) => ({ name, plot })) };
  };
  select.addEventListener('change', draw);
  resizeWith(() => drawn, chartHeight);
  draw();
  markReady();
}

/** Loads the run the address names (a script element: fetch() fails on file://), then shows it. */
function load(): void {
  const asked = new URLSearchParams(location.search);
  const [suite, workload, run] = [asked.get(drilldownParams.suite), asked.get(drilldownParams.workload), asked.get(drilldownParams.run)];
  const missing = (why: string) => {
    document.getElementById('facts')!.replaceChildren(el('p', { class: 'muted' }, why));
    markReady();
  };
  if (suite === null || workload === null || run === null) return missing('This address names no run: open a drill-down from a workload page.');
  // The data file's path is built from the names as the site names files (slugs, and the
  // workload's part of the run), so an address can only ever load a drill-down data file of this site.
  const script = el('script', { src: sitePaths.drilldownData(suite, workload, run) });
  script.addEventListener('load', () => {
    const parts = window.NIGHTBENCH_DRILLDOWN ?? {};
    const drilldowns = Object.hasOwn(parts, run) ? parts[run]! : {};
    if (Object.hasOwn(drilldowns, workload)) start(drilldowns[workload]!);
    else missing(`No drill-down of run ${run} of ${workload} is on this site.`);
  });
  script.addEventListener('error', () => missing(`No drill-down of run ${run} of ${workload} is on this site (only the latest nights' runs and marked nights have one).`));
  document.body.append(script);
}

load();
