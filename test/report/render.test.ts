import { describe, expect, it } from 'vitest';
import { decimalExponent, fromUnits, toUnits } from '../../src/report/format.js';
import { escapeHtml, html, layout } from '../../src/report/render.js';
import { indexDataParts } from '../../src/report/index-data.js';
import { encodeSpark, sparkPath } from '../../src/report/spark.js';
import { renderIndex } from '../../src/report/render-index.js';
import { renderWorkloadPage, workloadPageMarkup } from '../../src/report/render-workload.js';
import type { IndexRow, WorkloadPage } from '../../src/report/types.js';

const hostile = '<img src=x onerror=alert(1)>"\'&';
const variant = { id: 'v1', label: 'local:2x1:2GiB · default', clusterShape: 'local:2x1:2GiB', environment: 'default' };

describe('escapeHtml', () => {
  it.each([
    ['<script>', '&lt;script&gt;'],
    ['a & b', 'a &amp; b'],
    ['"quoted"', '&quot;quoted&quot;'],
    ["it's", 'it&#39;s'],
    ['plain', 'plain'],
    [42, '42'],
  ])('%s -> %s', (input, expected) => expect(escapeHtml(input)).toBe(expected));
});

describe('html templates', () => {
  it('escape interpolated text but keep fragments and arrays of fragments', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x"'}">${inner}${[html`<br>`, html`<hr>`]}${undefined}${false}</p>`.html).toBe('<p title="&quot;x&quot;"><b>&lt;i&gt;</b><br><hr></p>');
  });

  it('link every page to the index and to the A/B section, relative to where the page is', () => {
    const page = layout({ path: 'workloads/dask/shuffle.html', title: hostile, section: 'workload', generatedAt: '2026-02-10T06:00:00.000Z', body: html`<p>x</p>`, scripts: ['assets/workload.js'] });
    expect(page).toContain('href="../../index.html"');
    expect(page).toContain('href="../../ab/index.html">A/B</a>');
    expect(page).toContain('<script src="../../assets/workload.js"></script>');
    expect(page).not.toContain('<img');
  });

  it('draw a sparkline with a gap where a night has no value, lowest value at the bottom', () => {
    const encoded = encodeSpark([1, 2, null, 3, 4]);
    expect(encoded).toHaveLength(5);
    expect(sparkPath(encoded)!.d.match(/M/g)).toHaveLength(2);
    expect(sparkPath(encoded)!.d.startsWith('M1 22')).toBe(true);
    expect(sparkPath(encoded)!.last).toEqual({ x: 119, y: 2 });
    expect(sparkPath(encodeSpark([1]))).toBeUndefined();
  });
});

describe('pages', () => {
  it('render outside strings of the index as text', () => {
    const row: IndexRow = {
      suite: 'dask', workload: hostile, href: 'workloads/dask/x.html', metric: 'wall_time', unit: 's', variant, status: 'failing',
      statusNote: hostile, spark: [1, 2], error: `Traceback\n${hostile}`,
    };
    const page = renderIndex({ generatedAt: '2026-02-10T06:00:00.000Z', rows: [row], suites: [hostile], metrics: ['wall_time'], clusterShapes: [variant.clusterShape] }, 1);
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(page).toContain('<script src="data/index/0.js"></script>\n<script src="assets/index.js"></script>');
  });

  it('hand the index its rows as data parts, in order, each naming its own variants', () => {
    const other = { ...variant, id: 'v2', label: 'local:4x1:2GiB · default', clusterShape: 'local:4x1:2GiB' };
    const rows: IndexRow[] = ['a', 'b', 'c'].map((workload, i) => ({
      suite: 'dask', workload, href: '', metric: 'wall_time', unit: 's', variant: i === 1 ? other : variant, status: 'stable', spark: [1, null, 2], latest: 1.23456789, change: 0.01,
    }));
    const parts = indexDataParts(rows, 2);
    expect(parts.map((p) => p.rows.map((r) => r[1]))).toEqual([['a', 'b'], ['c']]);
    expect(parts[0]!.variants.map((v) => v.id)).toEqual(['v1', 'v2']);
    expect(parts[0]!.rows[1]![4]).toBe(1);
    expect(parts[1]!.variants.map((v) => v.id)).toEqual(['v1']);
    expect(parts[0]!.rows[0]).toEqual(['dask', 'a', 'wall_time', 's', 0, 'stable', null, null, 1.23457, 0.01, null, encodeSpark([1, null, 2]), null, null]);
  });

  it('closes an index data part by its bytes too, so long notes never make a file over the limit', () => {
    const note = 'stable: '.padEnd(400, 'x');
    const rows: IndexRow[] = Array.from({ length: 30 }, (_, i) => ({
      suite: 'dask', workload: `w${i}`, href: '', metric: 'wall_time', unit: 's', variant, status: 'stable', statusNote: note, spark: [1, 2], latest: 1, change: 0,
    }));
    const parts = indexDataParts(rows, 10_000, 2_000);
    expect(parts.flatMap((p) => p.rows.map((r) => r[1]))).toEqual(rows.map((r) => r.workload));
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(JSON.stringify(part).length).toBeLessThan(2_000 + 600);
  });

  it('render failure tails on the workload page as text', () => {
    const page: WorkloadPage = {
      suite: 'dask', workload: 'shuffle', slug: 'shuffle', variants: [{ variant, nights: [], runs: [], metrics: [], drilldowns: [] }],
      failures: [{ night: '2026-02-01', variant: variant.label, repeat: 1, status: 'failed', error: `<script>alert(1)</script>` }],
    };
    const text = renderWorkloadPage(page, '2026-02-10T06:00:00.000Z');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text.match(/<script/g)).toHaveLength(3);
  });
});

describe('the workload page', () => {
  it('shows what each judged series catches at its settings, and says so when none was judged', () => {
    const metric = { metric: 'wall_time', unit: 's', threshold: 0.1, exponent: -3, repeats: [], median: [], baseline: [], markers: [], levels: [], status: 'stable' as const };
    const sensitivity = { oneNight: 0.27, withinNights: 0.15, nights: 3, repeats: 3, threshold: 0.1, text: 'this test sees a 15% change in 3 nights (27% on its first night)' };
    const page: WorkloadPage = { suite: 'dask', workload: 'shuffle', slug: 'shuffle', variants: [{ variant, nights: [], runs: [], metrics: [{ ...metric, sensitivity }], drilldowns: [] }], failures: [] };
    const text = renderWorkloadPage(page, '2026-02-10T06:00:00.000Z');
    expect(text).toContain('<th class="num">Within 3 nights</th>');
    expect(text).toContain('<td>wall_time</td><td class="num">3</td><td class="num">27%</td><td class="num">15%</td><td>this test sees a 15% change in 3 nights (27% on its first night)</td>');
    const unjudged = renderWorkloadPage({ ...page, variants: [{ ...page.variants[0]!, metrics: [metric] }] }, '2026-02-10T06:00:00.000Z');
    expect(unjudged).toContain('No series of this workload was judged on the latest night.');
    // Judged, but too young to tell: said so instead of a figure from a few nights.
    const young = renderWorkloadPage({ ...page, variants: [{ ...page.variants[0]!, metrics: [{ ...metric, sensitivityFrom: 17 }] }] }, '2026-02-10T06:00:00.000Z');
    expect(young).toContain("Its series are too new at their level to tell what they catch: that is known from a series' 17th night at its level.");
    const some = renderWorkloadPage({ ...page, variants: [{ ...page.variants[0]!, metrics: [{ ...metric, sensitivity }, { ...metric, metric: 'cpu_time', sensitivityFrom: 17 }] }] }, '2026-02-10T06:00:00.000Z');
    expect(some).toContain("1 more series is too new at its level to tell what it catches");
  });

  it('is the same from the part of the page that the build hands to the thread writing its markup', () => {
    const metric = { metric: 'wall_time', unit: 's', threshold: 0.1, exponent: -3, repeats: [[1]], median: [1], baseline: [null], markers: [], levels: [], status: 'stable' as const };
    const sensitivity = { oneNight: 0.27, withinNights: 0.15, nights: 3, repeats: 3, threshold: 0.1, text: 'this test sees a 15% change in 3 nights (27% on its first night)' };
    const page: WorkloadPage = {
      suite: 'dask', workload: 'shuffle', slug: 'shuffle', availability: 'not available before dask@4444444 (2022-12-04): reasons',
      variants: [{ variant, nights: ['2026-02-09'], runs: [0], metrics: [{ ...metric, sensitivity }, { ...metric, metric: 'cpu_time', sensitivityFrom: 17 }], drilldowns: [{ night: '2026-02-09', runId: 'r1', href: 'drilldown.html#r1' }] }],
      failures: [{ night: '2026-02-01', variant: variant.label, repeat: 1, status: 'failed', error: 'boom' }],
      machineNights: [{ night: '2026-02-09', reason: 'canary compute_seconds +62.0%' }],
    };
    const markup = workloadPageMarkup(page);
    expect(markup).not.toHaveProperty('variants.0.metrics.0.repeats');
    expect(renderWorkloadPage(structuredClone(markup), '2026-02-10T06:00:00.000Z')).toBe(renderWorkloadPage(page, '2026-02-10T06:00:00.000Z'));
  });
});

describe('machine nights on the pages', () => {
  it('are named on the index and on the workload page, with why', () => {
    const machineNights = [{ night: '2026-02-09', reason: 'canary compute_seconds +62.0%; 7 of 8 timed series moved slower together' }];
    const index = renderIndex({ generatedAt: '2026-02-10T06:00:00.000Z', rows: [], suites: [], metrics: [], clusterShapes: [], machineNights }, 0);
    expect(index).toContain('<strong>machine</strong> nights');
    expect(index).toContain('<span title="canary compute_seconds +62.0%; 7 of 8 timed series moved slower together">2026-02-09</span>');
    const page: WorkloadPage = { suite: 'dask', workload: 'shuffle', slug: 'shuffle', variants: [], failures: [], machineNights };
    expect(renderWorkloadPage(page, '2026-02-10T06:00:00.000Z')).toContain('<tr><td>2026-02-09</td><td>canary compute_seconds +62.0%; 7 of 8 timed series moved slower together</td></tr>');
    expect(renderIndex({ generatedAt: '2026-02-10T06:00:00.000Z', rows: [], suites: [], metrics: [], clusterShapes: [] }, 0)).not.toContain('machine</strong>');
  });
});

describe('number formats', () => {
  it.each([[551_380_000, 4], [30.123, -3], [0.0123, -6], [0, 0]])('gives %d five significant digits with exponent %d', (value, exponent) => {
    expect(decimalExponent([value, value / 2])).toBe(exponent);
    expect(fromUnits(toUnits(value, exponent), exponent)).toBeCloseTo(value, 10);
  });
});
