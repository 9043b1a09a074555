import { describe, expect, it } from 'vitest';
import { renderAbIndex, renderAbReport } from '../../src/report/ab.js';
import { abSitePageSchema, type AbSitePage } from '../../src/ab/site-page-schema.js';

const report: AbSitePage = {
  id: 'ab-1', title: '<b>saturation</b>', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'default' }, candidate: { name: 'sat-1.1', description: '<i>x</i>' },
  comparisons: [{ workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 8, ratio: 0.8, low: 0.75, high: 0.85, p: 0.001, verdict: 'faster' }],
};

describe('A/B pages', () => {
  it('validate the report files the A/B command writes', () => {
    expect(abSitePageSchema.parse(report)).toEqual(report);
    expect(abSitePageSchema.safeParse({ ...report, comparisons: [{ workload: 'x' }] }).success).toBe(false);
  });

  it('list reports newest first and render them with outside text escaped', () => {
    const older = { ...report, id: 'ab-0', title: 'older', createdAt: '2026-01-01T00:00:00Z' };
    const index = renderAbIndex([older, report], '2026-02-10T09:00:00Z');
    expect(index.indexOf('&lt;b&gt;saturation')).toBeLessThan(index.indexOf('older'));
    expect(index).toContain('href="ab-1.html"');
    const page = renderAbReport(report, '2026-02-10T09:00:00Z');
    expect(page).not.toContain('<b>');
    expect(page).toContain('-20.0%');
    expect(page).toContain('-25.0% … -15.0%');
    // The adjusted p reads as in the terminal, the Markdown and the PR comment: 0.002, 1, 3.3e-5.
    const p = (value: number) => /<td class="num">([^<]*)<\/td><td class="verdict">/.exec(renderAbReport({ ...report, comparisons: [{ ...report.comparisons[0]!, p: value }] }, '2026-02-10T09:00:00Z'))![1];
    expect([p(0.002), p(1), p(0.0000327)]).toEqual(['0.002', '1', '3.3e-5']);
    expect(renderAbIndex([], '2026-02-10T09:00:00Z')).toContain('No A/B report yet');
  });

  it('draw each side as a median bar with a mean mark and an sd whisker, the ratio over the A/A band, and list the runs', () => {
    const detailed: AbSitePage = {
      ...report,
      comparisons: [{ ...report.comparisons[0]!, baselineMean: 10.2, baselineStd: 0.5, candidateMean: 8.1, candidateStd: 0.4, bandLow: 0.95, bandHigh: 1.05, baselineValues: [9.8, 10, 10.8], candidateValues: [7.9, 8, 8.4] }],
    };
    expect(abSitePageSchema.parse(detailed)).toEqual(detailed);
    const page = renderAbReport(detailed, '2026-02-10T09:00:00Z');
    // Two bars: A to its median 10 (the axis ends at max(median, mean + sd) = 10.7), B to 8.
    expect(page).toMatch(/<rect x="0" y="2" width="140\.2"/);
    expect(page).toMatch(/<rect x="0" y="16" width="112\.1"/);
    expect(page).toContain('class="ab-band"');
    // The figures behind the verdict sit under it, one unbroken line each.
    const withDetail = renderAbReport({ ...detailed, comparisons: [{ ...detailed.comparisons[0]!, verdictFigures: ['A/A band -5.0% … +5.0%', 'raw p 0.0002'] }] }, '2026-02-10T09:00:00Z');
    expect(withDetail).toContain('<td class="verdict">faster<small><span>A/A band -5.0% … +5.0%</span><span>raw p 0.0002</span></small></td>');
    // Long names may break after their underscores, in the heatmap and the table, so the tables fit the page.
    expect(withDetail).toContain('<th>wall_<wbr>time</th>');
    expect(withDetail).toContain('<td>wall_<wbr>time</td>');
    expect(page).toContain('<h2>Individual runs</h2>');
    expect(page).toContain('9.8 s · 10 s · 10.8 s');
    // Without means or values (older report files), the page has neither bars nor a runs section.
    const plain = renderAbReport(report, '2026-02-10T09:00:00Z');
    expect(plain).not.toContain('ab-bars');
    expect(plain).not.toContain('Individual runs');
  });

  it('show a test without a ratio (a baseline of zeros) by its medians, with its verdict and no ratio chart', () => {
    const spilled: AbSitePage = { ...report, comparisons: [{ workload: 'spill', metric: 'spilled_bytes', unit: 'bytes', baselineMedian: 0, candidateMedian: 1.19 * 2 ** 30, p: 0.00089, verdict: 'worse', verdictFigures: ['no ratio, no A/A band', 'raw p 0.00041'] }] };
    expect(abSitePageSchema.parse(spilled)).toEqual(spilled);
    const page = renderAbReport(spilled, '2026-02-10T09:00:00Z');
    expect(page).toContain('<td class="num change worse">0 B → 1.19 GiB</td>');
    expect(page).toMatch(/data-verdict="worse"><a href="#test-spill.spilled_bytes" title="spill · spilled_bytes: 0 B → 1.19 GiB, no A\/A band \(worse\)">0 B → 1.19 GiB<\/a>/);
    expect(page).not.toContain('class="ab-ratio"');
    expect(page).not.toMatch(/NaN|undefined|Infinity/);
  });

  it('list the workloads that failed on a side under a heading of their own, before the overview, escaped', () => {
    const failed = { ...report, failures: ['matmul in B (eager-spill): no repeat ran cleanly (8 failed; last error: <b>boom</b>); not compared'] };
    expect(abSitePageSchema.parse(failed)).toEqual(failed);
    const page = renderAbReport(failed, '2026-02-10T09:00:00Z');
    expect(page).toContain('<li>matmul in B (eager-spill): no repeat ran cleanly (8 failed; last error: &lt;b&gt;boom&lt;/b&gt;); not compared</li>');
    expect(page.indexOf('<h2>Failed</h2>')).toBeLessThan(page.indexOf('<h2>Overview</h2>'));
    expect(renderAbReport(report, '2026-02-10T09:00:00Z')).not.toContain('<h2>Failed</h2>');
  });

  it('head the interval column with the level the A/B computed it at (ab.confidence), 95% for files that do not say', () => {
    expect(renderAbReport(report, '2026-02-10T09:00:00Z')).toContain('<th class="num">95% interval</th>');
    expect(renderAbReport({ ...report, confidence: 0.9 }, '2026-02-10T09:00:00Z')).toContain('<th class="num">90% interval</th>');
  });
});
