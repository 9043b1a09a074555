/**
 * Detection over 2,000 series x 365 nights x 3 repeats (500 workloads x the runner's 4 metrics):
 *   1. the pure stages on in-memory rows (group every night, compare and judge the latest, plan);
 *   2. `detectRegressions` on a real SQLite history written through HistoryStore (it reads only
 *      the window); with --full-read also the pure stages after reading all 365 nights from SQLite.
 * Prints wall and CPU times; the target is < 2 s for (1) and for `detectRegressions`. Writing
 * the SQLite history takes about 50 s of CPU; reading all of it back about 90 s more.
 *   npx tsx bench/detect.ts [--no-sqlite] [--full-read]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { planEpisodes } from '../src/detect/episodes.js';
import { defaultDetectionPolicy as policy } from '../src/detect/policy.js';
import { detectRegressions, judgeRows } from '../src/detect/run.js';
import { groupSeries } from '../src/detect/series.js';
import { openHistory } from '../src/history/open.js';
import type { ResultRow } from '../src/history/types.js';
import { writeSyntheticHistory } from '../test/helpers/synthetic-history.js';
import { createRandom } from '../src/stats/index.js';

const nights = 365;
const workloads = 500;
const metrics = ['average_memory', 'cpu_time', 'peak_memory', 'wall_time'];
const repeats = 3;
const withSqlite = !process.argv.includes('--no-sqlite');
const fullRead = process.argv.includes('--full-read');

function nightAt(i: number): string {
  return new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
}

/** Rows as `resultRows` returns them, ordered by night, workload, repeat, metric; two planted steps. */
function inMemoryRows(): ResultRow[] {
  const random = createRandom(7);
  const rows: ResultRow[] = [];
  const levels = Array.from({ length: workloads * metrics.length }, () => 1 + 40 * random());
  for (let n = 0; n < nights; n++) {
    const night = nightAt(n);
    const runId = `run-${n}`;
    const startedAt = `${night}T02:00:00Z`;
    const commits = { 'dask/dask': `dask-${n}`, 'dask/distributed': `distributed-${n}` };
    for (let w = 0; w < workloads; w++) {
      const workload = `workload_${String(w).padStart(3, '0')}`;
      for (let repeat = 1; repeat <= repeats; repeat++) {
        for (const [m, metric] of metrics.entries()) {
          const step = n === nights - 1 && w < 2 ? 1.3 : 1;
          const value = levels[w * metrics.length + m]! * step * (1 + 0.03 * (random() + random() + random() - 1.5) * 2);
          rows.push({
            runId, kind: 'nightly', suite: 'dask', night, startedAt, environmentName: 'default', environmentFingerprint: 'env',
            provider: 'local', clusterShape: 'local:2x1:2GiB', instanceType: undefined, workload, workloadVersion: '1', repeat,
            status: 'ok', metric, value, unit: 's', error: null, disturbance: null, commits,
          });
        }
      }
    }
  }
  return rows;
}

/** Wall time, and this process's CPU time (the machine may be shared: the CPU time is the fairer figure). */
function time<T>(label: string, body: () => T): T {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = body();
  const used = process.cpuUsage(cpu);
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(3)} s wall, ${((used.user + used.system) / 1e6).toFixed(3)} s CPU`);
  return result;
}

/** The pure stages over every row: group the window, judge the latest night, plan the episodes. */
function pureDetection(rows: readonly ResultRow[]): number {
  const verdicts = judgeRows(rows, [], policy, nightAt(nights - 1));
  return planEpisodes(verdicts, [], policy).length;
}

const rows = inMemoryRows();
console.log(`${rows.length.toLocaleString('en')} rows in memory: ${workloads * metrics.length} series x ${nights} nights x ${repeats} repeats`);
// Once to warm the JIT, as a long-lived nightly process would be after its first series.
time('pure stages, first (cold) pass', () => pureDetection(rows));
const opened = time('pure stages, warm pass (scan every row, group the window, judge the latest night, plan)', () => pureDetection(rows));
const grouped = time('grouping every row of all 365 nights into series (not needed to judge one night)', () => groupSeries(rows));
console.log(`  ${grouped.length} series, ${grouped.reduce((n, s) => n + s.points.length, 0).toLocaleString('en')} night points`);
console.log(`  episodes planned: ${opened} (8 planted: 2 workloads x 4 metrics at +30%)`);

if (withSqlite) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nb-bench-detect-'));
  try {
    const file = path.join(dir, 'history.sqlite');
    const store = openHistory(file);
    time('writing the SQLite history (setup, not part of the target)', () =>
      writeSyntheticHistory(store, {
        seed: 7, workloads, nights, repeats, firstNight: nightAt(0), samplesForLastNights: 0,
        changes: [{ workload: 'shuffle', metric: 'wall_time', night: nights - 1, factor: 1.3 }],
      }),
    );
    console.log(`  ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`);
    const report = time('detectRegressions on SQLite (reads the 8-night window, judges, stores episodes)', () => detectRegressions(store, policy));
    console.log(`  ${report.verdicts.length} series judged, ${report.openedIds.length} episodes opened, counts ${JSON.stringify(report.counts)}`);
    time('detectRegressions again, same night (idempotent, no change)', () => detectRegressions(store, policy));
    if (fullRead) {
      const allRows = time('reading every nightly row of 365 nights from SQLite', () => store.runs.resultRows({ kind: 'nightly' }));
      time(`pure stages on those ${allRows.length.toLocaleString('en')} rows`, () => pureDetection(allRows));
    }
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
