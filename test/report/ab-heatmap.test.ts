import { describe, expect, it } from 'vitest';
import { renderAbReport } from '../../src/report/ab.js';
import type { AbSitePage } from '../../src/ab/site-page-schema.js';
import { abTestAnchor, changeInBands } from '../../src/report/ab-heatmap.js';

const test = (workload: string, metric: string, ratio: number, verdict: string, band = true): AbSitePage['comparisons'][number] => ({
  workload, metric, unit: 's', baselineMedian: 10, candidateMedian: 10 * ratio, ratio, verdict, ...(band ? { bandLow: 1 / 1.05, bandHigh: 1.05 } : {}),
});

describe('the A/B overview heatmap', () => {
  it('measures a change in A/A bands on its own side of 1', () => {
    expect(changeInBands({ ratio: 1.05 ** 2, bandLow: 0.9, bandHigh: 1.05 })).toBeCloseTo(2, 10);
    expect(changeInBands({ ratio: 0.9, bandLow: 0.9, bandHigh: 1.05 })).toBeCloseTo(-1, 10);
    expect(changeInBands({ ratio: 1.2 })).toBeUndefined();
  });

  it('draws one cell per test, linked to its row, deeper in colour the more bands it spans', () => {
    const report: AbSitePage = {
      id: 'ab-2', title: 't', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'A' }, candidate: { name: 'B' },
      comparisons: [test('shuffle', 'wall_time', 1.3, 'slower'), test('shuffle', 'memory', 1.01, 'no clear change'), test('join <x>', 'wall_time', 0.8, 'faster', false)],
    };
    const page = renderAbReport(report, '2026-02-10T09:00:00Z');
    const cells = [...page.matchAll(/<td class="heat heat-(\w+)" style="background:rgba\([\d,]+,([\d.]+)\)" data-bands="([^"]*)" data-verdict="[^"]*"><a href="#([^"]+)"/g)].map((m) => ({ tone: m[1], alpha: Number(m[2]), bands: m[3], anchor: m[4] }));
    expect(cells).toHaveLength(3);
    const slower = cells.find((c) => c.anchor === abTestAnchor('shuffle', 'wall_time'))!;
    const noise = cells.find((c) => c.anchor === abTestAnchor('shuffle', 'memory'))!;
    expect(slower.tone).toBe('worse');
    expect(noise.tone).toBe('neutral');
    expect(slower.alpha).toBeGreaterThan(noise.alpha);
    expect(cells.find((c) => c.tone === 'better')!.bands).toBe('');
    for (const cell of cells) expect(page).toContain(`<tr id="${cell.anchor}">`);
    expect(page).toContain('<td class="heat-empty"></td>');
    expect(page).not.toContain('<x>');
  });
});
