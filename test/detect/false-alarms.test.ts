import { describe, expect, it } from 'vitest';
import { defaultDetectionPolicy as policy } from '../../src/detect/policy.js';
import { nightAt, runNights, seriesRows } from './helpers.js';

describe('false alarms and power at the default policy', () => {
  it('opens fewer than 1 episode per 100 unchanged series (60 nights, CV 5%, 3 repeats)', () => {
    let opened = 0;
    let judged = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const run = runNights(seriesRows({ seed, nights: 60, repeats: 3, cv: 0.05 }), policy, 1, 59);
      opened += run.opened;
      judged += run.verdicts.flat().filter((v) => v.kind === 'stable' || v.kind === 'regression' || v.kind === 'improvement').length;
    }
    console.log(`false alarms: ${opened} episodes opened over 1000 unchanged series x 60 nights (${judged} judged nights), CV 5%, 3 repeats`);
    expect(opened).toBeLessThan(10);
  });

  it('finds most +15% steps at 3% noise on their first night', () => {
    let found = 0;
    const trials = 300;
    for (let seed = 1; seed <= trials; seed++) {
      const run = runNights(seriesRows({ seed: 5000 + seed, nights: 12, repeats: 3, cv: 0.03, steps: [{ from: 10, factor: 1.15 }] }), policy, 10, 10);
      if (run.episodes.some((e) => e.firstBad.night === nightAt(10))) found++;
    }
    console.log(`power: ${found} of ${trials} +15% steps at CV 3% (3 repeats, 7 baseline nights) opened an episode on their first night`);
    expect(found / trials).toBeGreaterThan(0.85);
  });
});
