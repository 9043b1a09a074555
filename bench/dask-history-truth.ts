/**
 * The measured ground truth of a recorded Dask history pair (bench/record-dask-history.ts), as
 * Markdown: per workload and metric, the median of the nightly medians over the week before the
 * planted night and over the nights from it on, in planted.sqlite and, for contrast, in
 * real.sqlite; the paired effect (median over the nights from the planted one of planted / real
 * nightly median: both were recorded alternately, so machine drift cancels); the night-to-night spread of the nightly median (1.4826 x MAD / median, the
 * detector's own yardstick) in real.sqlite; and the first-repeat bias (median over nights of
 * repeat 1 / mean of the later repeats - 1) in real.sqlite.
 *   npx tsx bench/dask-history-truth.ts [--dir /work/dask-history] [--planted-night 2023-01-12]
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { mean, median } from 'simple-statistics';
import { relativeSpread } from '../src/stats/index.js';

const argValue = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dir = argValue('--dir', '/work/dask-history');
const plantedNight = argValue('--planted-night', '2023-01-12');
const workloads = ['array_reduction', 'shuffle'];
const metrics = ['wall_time', 'compute_seconds', 'cpu_time'];

/** night -> repeat -> value of one workload's metric, from good repeats of recorded nightlies. */
type Series = Map<string, Map<number, number>>;

function readSeries(file: string, workload: string, metric: string): Series {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT u.night, r.repeat, r.value FROM results r
           JOIN runs u ON u.id = r.run_id
           JOIN repeats p ON p.run_id = r.run_id AND p.workload = r.workload AND p.repeat = r.repeat
          WHERE u.kind = 'nightly' AND u.status IN ('complete', 'partial') AND p.status = 'ok' AND r.workload = ? AND r.metric = ?
          ORDER BY u.night, r.repeat`,
      )
      .all(workload, metric) as { night: string; repeat: number; value: number }[];
    const series: Series = new Map();
    for (const row of rows) series.set(row.night, (series.get(row.night) ?? new Map()).set(row.repeat, row.value));
    return series;
  } finally {
    db.close();
  }
}

function nightlyMedians(series: Series, keep: (night: string) => boolean): number[] {
  return [...series].filter(([night]) => keep(night)).map(([, repeats]) => median([...repeats.values()]));
}

function weekBefore(night: string): string {
  return new Date(Date.parse(`${night}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
}

/** Median over nights of repeat 1 / mean(repeats 2..) - 1. */
function firstRepeatBias(series: Series): number | undefined {
  const ratios = [...series.values()].flatMap((repeats) => {
    const first = repeats.get(1);
    const later = [...repeats].filter(([repeat]) => repeat > 1).map(([, value]) => value);
    return first !== undefined && later.length > 0 && mean(later) > 0 ? [first / mean(later) - 1] : [];
  });
  return ratios.length > 0 ? median(ratios) : undefined;
}

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? 'n/a' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);
const num = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(2));
const medianOrNaN = (values: number[]) => (values.length > 0 ? median(values) : Number.NaN);

const weekStart = weekBefore(plantedNight);
const lines: string[] = [];
lines.push(`Before = nights ${weekStart}..(${plantedNight} - 1), after = nights from ${plantedNight}; each figure is the median of the nightly medians (n = nights).`, '');
lines.push('| workload | metric | db | before (n) | after (n) | change | paired planted / real (n) |', '| --- | --- | --- | --- | --- | --- | --- |');
for (const workload of workloads) {
  for (const metric of metrics) {
    const real = readSeries(path.join(dir, 'real.sqlite'), workload, metric);
    for (const variant of ['planted', 'real']) {
      const series = variant === 'real' ? real : readSeries(path.join(dir, 'planted.sqlite'), workload, metric);
      const before = nightlyMedians(series, (n) => n >= weekStart && n < plantedNight);
      const after = nightlyMedians(series, (n) => n >= plantedNight);
      const [b, a] = [medianOrNaN(before), medianOrNaN(after)];
      const paired = [...series].filter(([night]) => variant === 'planted' && night >= plantedNight && real.has(night))
        .map(([night, repeats]) => median([...repeats.values()]) / median([...real.get(night)!.values()]));
      const pairedText = paired.length > 0 ? `${pct(median(paired) - 1)} (${paired.length})` : '';
      lines.push(`| ${workload} | ${metric} | ${variant} | ${num(b)} (${before.length}) | ${num(a)} (${after.length}) | ${pct(a / b - 1)} | ${pairedText} |`);
    }
  }
}
lines.push('', 'real.sqlite, all nights: night-to-night spread of the nightly median (1.4826 MAD / median; and sd / mean), and the first-repeat bias.', '');
lines.push('| workload | metric | nights | spread (MAD) | spread (sd/mean) | repeat 1 vs mean of 2-3 |', '| --- | --- | --- | --- | --- | --- |');
for (const workload of workloads) {
  for (const metric of metrics) {
    const series = readSeries(path.join(dir, 'real.sqlite'), workload, metric);
    const medians = nightlyMedians(series, () => true);
    const sd = medians.length > 1 ? Math.sqrt(medians.reduce((s, v) => s + (v - mean(medians)) ** 2, 0) / (medians.length - 1)) / mean(medians) : undefined;
    lines.push(`| ${workload} | ${metric} | ${medians.length} | ${pct(medians.length > 1 ? relativeSpread(medians) : undefined)} | ${pct(sd)} | ${pct(firstRepeatBias(series))} |`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
