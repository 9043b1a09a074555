/** A small analysed A/B for tests of what is made from a report. */
import { analyzeAb, testKey, type AbObservation } from '../../src/ab/analysis.js';
import type { AbReport } from '../../src/ab/report.js';
import { abGroups } from '../../src/ab/schedule.js';

const tight = [10.0, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7];
const directions = { [testKey('s', 'shuffle', 'wall_time')]: 'lower' as const, [testKey('s', 'sum', 'wall_time')]: 'lower' as const };

function observations(group: string, workload: string, values: number[]): AbObservation[] {
  return values.map((value) => ({ group, suite: 's', workload, metric: 'wall_time', unit: 's', value }));
}

/** An A/B with A/A: "shuffle" 30% slower in B, "sum" unchanged. */
export function shuffleSlowerReport(): AbReport {
  const groups = abGroups(['baseline', 'candidate'], true);
  const analysis = analyzeAb({
    groups,
    observations: [
      ...['A', "A'"].flatMap((g) => [...observations(g, 'shuffle', tight), ...observations(g, 'sum', tight)]),
      ...observations('B', 'shuffle', tight.map((v) => v * 1.3)),
      ...observations('B', 'sum', [...tight].reverse()),
    ],
    directions,
    options: { fdr: 0.05, confidence: 0.95, resamples: 500, seed: 3 },
  });
  return { header: { id: '0123456789abcdef', createdAt: '2026-12-04T10:00:00Z', status: 'completed', groups, repeats: 8, order: 'blocks', seed: 3, clusterShapes: ['2x1GiB'], fdr: 0.05, confidence: 0.95 }, analysis };
}
