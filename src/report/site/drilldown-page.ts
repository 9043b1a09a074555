/**
 * The run drill-down: for the chosen repeat, every cluster process's memory (RSS) and CPU use
 * over the repeat, from the samples the runner stored.
 *
 * @module
 */
import uPlot from 'uplot';
import type { DrilldownPage, DrilldownRepeat } from '../types.js';
import { axes, palette, resizeWith, widthOf } from './chart-kit.js';
import { markReady } from './dom.js';
import './globals.js';

const chartHeight = 240;

function start(page: DrilldownPage): void {
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

const page = window.NIGHTBENCH_DRILLDOWN;
if (page) start(page);
