import { describe, expect, it } from 'vitest';
import { abReportSchema, renderAbIndex, renderAbReport, type AbReport } from '../../src/report/ab.js';

const report: AbReport = {
  id: 'ab-1', title: '<b>saturation</b>', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'default' }, candidate: { name: 'sat-1.1', description: '<i>x</i>' },
  comparisons: [{ workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 8, ratio: 0.8, low: 0.75, high: 0.85, p: 0.001, verdict: 'faster' }],
};

describe('A/B pages', () => {
  it('validate the report files the A/B command writes', () => {
    expect(abReportSchema.parse(report)).toEqual(report);
    expect(abReportSchema.safeParse({ ...report, comparisons: [{ workload: 'x' }] }).success).toBe(false);
  });

  it('list reports newest first and render them with outside text escaped', () => {
    const older = { ...report, id: 'ab-0', title: 'older', createdAt: '2026-01-01T00:00:00Z' };
    const index = renderAbIndex([older, report], '2026-02-10T09:00:00Z');
    expect(index.indexOf('&lt;b&gt;saturation')).toBeLessThan(index.indexOf('older'));
    expect(index).toContain('href="ab-1.html"');
    const page = renderAbReport(report, '2026-02-10T09:00:00Z');
    expect(page).not.toContain('<b>');
    expect(page).toContain('−20.0%');
    expect(page).toContain('−25.0% … −15.0%');
    expect(renderAbIndex([], '2026-02-10T09:00:00Z')).toContain('No A/B report yet');
  });
});
