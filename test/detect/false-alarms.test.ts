import { describe, expect, it } from 'vitest';
import { planEpisodes } from '../../src/detect/episodes.js';
import { falseAlarmNoiseFloors, type FalseAlarmStep } from '../../src/detect/false-alarms.js';
import { describeDetectable } from '../../src/detect/judge.js';
import { detectionSchema } from '../../src/detect/policy.js';
import { judgeNight } from '../../src/detect/run.js';
import { groupSeries } from '../../src/detect/series.js';
import { nightAt, seriesRows } from './helpers.js';

const policy = detectionSchema.parse({});
// A quiet series that steps up 20% on night 40: the fast path opens an episode that night.
const [series] = groupSeries(seriesRows({ nights: 41, repeats: 3, cv: 0.03, seed: 21, steps: [{ from: 40, factor: 1.2 }] }));
const stepNight = nightAt(40);

function night(falseAlarms: FalseAlarmStep[]) {
  const [verdict] = judgeNight([series!], [], policy, stepNight, undefined, falseAlarms);
  return { verdict: verdict!, opened: planEpisodes([verdict!], [], policy).filter((change) => change.action === 'open').length };
}

const falseAlarm = (over: Partial<FalseAlarmStep> = {}): FalseAlarmStep => ({ seriesKey: series!.key, firstBadNight: nightAt(10), ratio: 1.25, ...over });

describe('false alarms in detection', () => {
  it('a +20% night opens an episode without a false alarm', () => {
    const { verdict, opened } = night([]);
    expect(verdict.kind).toBe('regression');
    expect(opened).toBe(1);
  });

  it("a recorded +25% false alarm of the series raises its noise: the +20% night opens nothing, and detect says what it catches now", () => {
    const measured = night([]).verdict;
    const { verdict, opened } = night([falseAlarm()]);
    expect(verdict.kind).toBe('stable');
    expect(opened).toBe(0);
    // |ln 1.25| / min(4, 4 / sqrt 3)
    expect(verdict.noise).toBeCloseTo(Math.log(1.25) / (policy.persistZ / Math.sqrt(3)), 10);
    expect(verdict.noise!).toBeGreaterThan(measured.noise! * 2);
    expect(verdict.reason).toContain('after a false alarm');
    expect(verdict.detectable!.persistent).toBeGreaterThan(0.25);
    expect(verdict.detectable!.firstNight).toBeGreaterThan(0.25);
    expect(describeDetectable(verdict.detectable!)).toMatch(/^3 repeats, \d+% nightly noise: changes of \d+% or more within 3 nights \(\d+% on their first night\)$/);
  });

  it("another series' false alarm changes nothing", () => {
    const { verdict, opened } = night([falseAlarm({ seriesKey: `${series!.key}-other` })]);
    expect(verdict).toEqual(night([]).verdict);
    expect(opened).toBe(1);
  });

  it('a false alarm older than the window changes nothing, one inside it counts', () => {
    expect(night([falseAlarm({ firstBadNight: '2025-10-01' })]).opened).toBe(1);
    expect(falseAlarmNoiseFloors([falseAlarm({ firstBadNight: '2025-10-01' })], policy, stepNight).size).toBe(0);
    expect(falseAlarmNoiseFloors([falseAlarm({ firstBadNight: '2025-11-20' })], policy, stepNight).size).toBe(1);
  });

  it("the floor is the series' largest recent false step, either way, and a false alarm on the night judged does not count", () => {
    const floors = falseAlarmNoiseFloors([falseAlarm({ ratio: 1.1 }), falseAlarm({ ratio: 0.7 }), falseAlarm({ firstBadNight: stepNight, ratio: 3 })], policy, stepNight);
    expect(floors.get(series!.key)).toBeCloseTo(Math.log(1 / 0.7) / (policy.persistZ / Math.sqrt(3)), 10);
  });
});
