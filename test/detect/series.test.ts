import { describe, expect, it } from 'vitest';
import { groupSeries, seriesKey, seriesOfLastResults } from '../../src/detect/series.js';
import type { ResultRow } from '../../src/history/types.js';
import { nightAt, seriesRows } from './helpers.js';

const base = seriesRows({ seed: 1, nights: 3, repeats: 2, cv: 0.03 });

function variant(rows: ResultRow[], change: Partial<ResultRow>): ResultRow[] {
  return rows.map((row) => ({ ...row, ...change, runId: `${row.runId}${change.runId ?? ''}` }));
}

describe('groupSeries', () => {
  it('gives one point per night to each workload, metric and comparable environment', () => {
    const rows = [...base, ...variant(base, { clusterShape: 'local:4x1:2GiB', runId: '-big' }), ...variant(base, { workloadVersion: '2', runId: '-v2' })];
    const series = groupSeries(rows);
    expect(series.map((s) => [s.identity.clusterShape, s.identity.workloadVersion])).toEqual([
      ['local:2x1:2GiB', '1'],
      ['local:4x1:2GiB', '1'],
      ['local:2x1:2GiB', '2'],
    ]);
    expect(series[0]!.points.map((p) => [p.night, p.status, p.values.length])).toEqual([0, 1, 2].map((i) => [nightAt(i), 'ok', 2]));
    expect(series[0]!.key).toBe(seriesKey(series[0]!.identity));
    expect(series[0]!.unit).toBe('s');
  });

  it('marks a night failed for every metric of a workload when one repeat failed', () => {
    const rows = base.flatMap((row) => [row, { ...row, metric: 'peak_memory', unit: 'bytes', value: 1e9 }]);
    rows.push({ ...rows[0]!, runId: 'late', night: nightAt(2), startedAt: `${nightAt(2)}T05:00:00Z`, repeat: 1, status: 'ok' });
    rows.push({ ...rows[0]!, runId: 'late', night: nightAt(2), startedAt: `${nightAt(2)}T05:00:00Z`, repeat: 2, status: 'timeout', metric: null, value: null, unit: null });
    const series = groupSeries(rows);
    expect(series.map((s) => s.identity.metric)).toEqual(['peak_memory', 'wall_time']);
    for (const one of series) {
      // The later run of night 2 counts: one repeat timed out, so the night is failed.
      expect(one.points.map((p) => p.status)).toEqual(['ok', 'ok', 'failed']);
      expect(one.points[2]).toMatchObject({ runId: 'late', okRepeats: 1, failedRepeats: 1 });
    }
    expect(series.find((s) => s.identity.metric === 'peak_memory')!.points[2]!.values).toEqual([]);
  });

  it('keeps disturbed values out and tells a missing metric from a disturbed night', () => {
    const rows = base.map((row) => (row.night === nightAt(1) ? { ...row, status: 'disturbed' as const } : row));
    rows.push({ ...base[0]!, metric: 'cpu_time', night: nightAt(0) });
    const [cpu, wall] = groupSeries(rows);
    expect(wall!.points.map((p) => p.status)).toEqual(['ok', 'disturbed', 'ok']);
    expect(wall!.points[1]).toMatchObject({ values: [], disturbedRepeats: 2 });
    expect(cpu!.points.map((p) => p.status)).toEqual(['ok', 'disturbed', 'missing']);
  });

  it("gives each night its own values of a metric some nights did not report, whichever night reported it first", () => {
    const spill = (night: number, value: number): ResultRow[] =>
      base.filter((row) => row.night === nightAt(night)).map((row) => ({ ...row, metric: 'spill_bytes', unit: 'bytes', value: value + row.repeat }));
    const gapped = (night: number, value: number): ResultRow[] => spill(night, value).map((row) => ({ ...row, metric: 'network_bytes' }));
    // spill_bytes first appears on the middle night; network_bytes skips it.
    const series = groupSeries([...base, ...spill(1, 100), ...gapped(0, 10), ...gapped(2, 30)]);
    const points = (metric: string) => series.find((s) => s.identity.metric === metric)!.points.map((p) => [p.status, p.values]);
    expect(points('spill_bytes')).toEqual([['missing', []], ['ok', [101, 102]], ['missing', []]]);
    expect(points('network_bytes')).toEqual([['ok', [11, 12]], ['missing', []], ['ok', [31, 32]]]);
    expect(points('wall_time').map(([status]) => status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('slices each series to the night and the results before it, by count, whatever the dates (seriesOfLastResults)', () => {
    const rows = seriesRows({ seed: 2, nights: 12, repeats: 1, cv: 0.03, absentNights: [3, 4, 5, 6, 7] });
    const [sliced] = seriesOfLastResults(groupSeries(rows), nightAt(10), 4);
    expect(sliced!.points.map((p) => p.night)).toEqual([1, 2, 8, 9, 10].map(nightAt));
    expect(seriesOfLastResults(groupSeries(rows), nightAt(0), 4)[0]!.points.map((p) => p.night)).toEqual([nightAt(0)]);
  });
});
