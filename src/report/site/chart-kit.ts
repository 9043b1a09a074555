/**
 * What every chart of the site shares: sizing to its container, axes in the site's colours, a
 * palette, and linking the x range of charts that show the same nights.
 *
 * @module
 */
import uPlot from 'uplot';

export const palette = ['#1f6feb', '#d97706', '#059669', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777', '#475569', '#7c3aed'];

const axisFont = '12px system-ui, -apple-system, "Segoe UI", sans-serif';

/**
 * Two axes in the site's style; the y axis formats values with `format` (and is labelled when a
 * label is given), each tick told the largest one so that all of them read in one unit.
 */
export function axes(format: (value: number, scaleOf?: number) => string, yLabel?: string): uPlot.Axis[] {
  const common = { stroke: '#57606a', font: axisFont, grid: { stroke: '#eaeef2', width: 1 }, ticks: { stroke: '#d0d7de', width: 1 } };
  return [
    { ...common },
    {
      ...common,
      ...(yLabel ? { label: yLabel, labelFont: axisFont } : {}),
      // As wide as the widest label: "12.5 seconds" does not fit a fixed 70 px and was cut off on the left.
      size: (u, values) => {
        u.ctx.font = axisFont;
        return Math.ceil(Math.max(40, ...(values ?? []).map((v) => u.ctx.measureText(v).width))) + 18;
      },
      values: (_u, splits) => {
        const largest = Math.max(0, ...splits.filter((v): v is number => v !== null).map(Math.abs));
        return splits.map((v) => (v === null ? '' : format(v, largest)));
      },
    },
  ];
}

/** Width of a chart: its container's, less a little for the border. */
export function widthOf(container: HTMLElement): number {
  return Math.max(320, Math.floor(container.clientWidth) - 2);
}

/** Redraws charts at their container's width when the window is resized. */
export function resizeWith(charts: () => { plot: uPlot; container: HTMLElement }[], height: number): void {
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      for (const { plot, container } of charts()) plot.setSize({ width: widthOf(container), height });
    });
  });
}

/**
 * Keeps the x range of a group of charts equal: zooming one zooms all. `onChange` hears every
 * range the user chose (by dragging or by the range controls).
 */
export function linkedRange(onChange: (min: number, max: number) => void) {
  const plots: uPlot[] = [];
  let applying = false;
  return {
    add(plot: uPlot) {
      plots.push(plot);
    },
    clear() {
      plots.length = 0;
    },
    /** A hook for each chart's `setScale`. */
    hook(source: uPlot, key: string) {
      if (key !== 'x' || applying) return;
      const { min, max } = source.scales['x']!;
      if (min === undefined || max === undefined || min === null || max === null) return;
      applying = true;
      for (const plot of plots) if (plot !== source) plot.setScale('x', { min, max });
      applying = false;
      onChange(min, max);
    },
    set(min: number, max: number) {
      applying = true;
      for (const plot of plots) plot.setScale('x', { min, max });
      applying = false;
      onChange(min, max);
    },
  };
}
