import { describe, expect, it } from 'vitest';
import { validate } from '../../src/validation.js';
import { configSchema } from '../../src/config/schema.js';
import { defaultDetectionPolicy, detectionSchema, resolveSeriesPolicy } from '../../src/detect/policy.js';

describe('detection policy', () => {
  it.each([
    { what: 'a negative threshold', detection: { threshold: -0.1 }, expected: /^config: detection\.threshold: / },
    { what: 'a rule naming nothing', detection: { thresholds: [{ threshold: 0.2 }] }, expected: /detection\.thresholds\.0: a threshold rule names at least one of suite, workload, metric/ },
    { what: 'an unknown direction', detection: { directions: { tasks_per_second: 'up' } }, expected: /detection\.directions\.tasks_per_second: / },
    { what: 'an unknown key', detection: { window: 7 }, expected: /detection: unknown key "window"/ },
    { what: 'a fractional window', detection: { windowDays: 1.5 }, expected: /detection\.windowDays: / },
  ])('rejects $what, naming the key', ({ detection, expected }) => {
    expect(() => validate(configSchema, { detection }, 'config')).toThrow(expected);
  });

  it('defaults to a 7-day window, a 10% threshold and lower is better', () => {
    const config = validate(configSchema, {}, 'config');
    expect(config.detection).toMatchObject({ windowDays: 7, lookbackDays: 30, threshold: 0.1, minBaselineNights: 3, alpha: 0.01, recoveryNights: 2, persistNights: 3, persistZ: 4.3 });
    expect(resolveSeriesPolicy(config.detection, { suite: 'dask', workload: 'shuffle', metric: 'wall_time' })).toEqual({ threshold: 0.1, direction: 'lower' });
  });

  it("takes a metric's direction from the suite, unless the config overrides it (the older spellings still read)", () => {
    const subject = { suite: 'dask', workload: 'shuffle', metric: 'tasks_per_second' };
    expect(resolveSeriesPolicy(defaultDetectionPolicy, subject, 'higher').direction).toBe('higher');
    expect(resolveSeriesPolicy(detectionSchema.parse({ directions: { tasks_per_second: 'lower' } }), subject, 'higher').direction).toBe('lower');
    expect(resolveSeriesPolicy(detectionSchema.parse({ directions: { tasks_per_second: 'higher-is-better' } }), subject).direction).toBe('higher');
  });

  it.each([
    { subject: { suite: 'dask', workload: 'shuffle', metric: 'wall_time' }, threshold: 0.3 },
    { subject: { suite: 'dask', workload: 'shuffle', metric: 'peak_memory' }, threshold: 0.2 },
    { subject: { suite: 'dask', workload: 'join', metric: 'peak_memory' }, threshold: 0.15 },
    { subject: { suite: 'dask', workload: 'join', metric: 'wall_time' }, threshold: 0.25 },
    { subject: { suite: 'other', workload: 'join', metric: 'cpu_time' }, threshold: 0.1 },
  ])('resolves the threshold of $subject.suite/$subject.workload $subject.metric to $threshold', ({ subject, threshold }) => {
    const policy = detectionSchema.parse({
      thresholds: [
        { suite: 'dask', threshold: 0.15 },
        { workload: 'shuffle', threshold: 0.2 },
        { metric: 'wall_time', threshold: 0.25 },
        { workload: 'shuffle', metric: 'wall_time', threshold: 0.3 },
      ],
    });
    expect(resolveSeriesPolicy(policy, subject).threshold).toBe(threshold);
  });
});
