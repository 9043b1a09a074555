/**
 * History write and read: 1,000,000 result rows through HistoryStore (as the runner writes them,
 * one transaction per repeat), then one series read back. Prints rows/s of wall time and per CPU
 * second (issue 25 asks >= 200,000 values/s).
 *   npx tsx bench/history.ts [rows]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { openHistory } from '../src/history/open.js';
import type { MetricValue } from '../src/history/types.js';

const totalRows = Number(process.argv[2] ?? 1_000_000);
const workloads = Array.from({ length: 20 }, (_, i) => `workload_${i}`);
const metrics = Array.from({ length: 10 }, (_, i) => `metric_${i}`);
const repeats = 5;
const rowsPerRun = workloads.length * metrics.length * repeats;
const runs = Math.ceil(totalRows / rowsPerRun);

const dir = mkdtempSync(path.join(tmpdir(), 'nb-bench-history-'));
const file = path.join(dir, 'history.sqlite');
const store = openHistory(file);

let written = 0;
// The machine is shared: CPU seconds (user + system of this process) say what the writes cost
// whatever else runs; wall seconds say what the runner waits on this machine now.
const writeStart = performance.now();
const writeCpuBefore = process.cpuUsage();
for (let run = 0; run < runs; run++) {
  const id = `run-${run}`;
  const night = new Date(Date.UTC(2024, 0, 1) + run * 86_400_000).toISOString().slice(0, 10);
  store.runs.beginRun({
    id, kind: 'nightly', suite: 'bench', night, startedAt: `${night}T02:00:00Z`, target: {}, environment: {}, commits: [],
    environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:2GiB',
    workers: 2, threadsPerWorker: 1, memoryPerWorker: 2 ** 31, scale: 1, harnessVersion: 'bench', host: hostname(), pid: process.pid, config: {},
  });
  for (const workload of workloads) {
    for (let repeat = 1; repeat <= repeats; repeat++) {
      const values: MetricValue[] = metrics.map((metric, m) => ({ metric, value: 10 + m + Math.random(), unit: 's' }));
      store.runs.recordRepeat({ runId: id, workload, repeat, workloadVersion: 'v', status: 'ok', startedAt: night, finishedAt: night, metrics: values, samples: [] });
      written += values.length;
    }
  }
  store.runs.finishRun(id, { status: 'complete', finishedAt: `${night}T03:00:00Z` });
}
const writeSeconds = (performance.now() - writeStart) / 1000;
const writeCpu = process.cpuUsage(writeCpuBefore);
const writeCpuSeconds = (writeCpu.user + writeCpu.system) / 1e6;

const readStart = performance.now();
const series = store.runs.resultRows({ kind: 'nightly', workload: 'workload_7', metric: 'metric_3' });
const readSeconds = (performance.now() - readStart) / 1000;
store.close();

const size = statSync(file).size;
console.log(`history write: ${written.toLocaleString('en')} result rows in ${runs} runs (${workloads.length} workloads x ${metrics.length} metrics x ${repeats} repeats each, one transaction per repeat)`);
console.log(`  ${writeSeconds.toFixed(1)} s, ${Math.round(written / writeSeconds).toLocaleString('en')} rows/s wall; ${writeCpuSeconds.toFixed(1)} CPU s (user ${(writeCpu.user / 1e6).toFixed(1)}, system ${(writeCpu.system / 1e6).toFixed(1)}), ${Math.round(written / writeCpuSeconds).toLocaleString('en')} rows per CPU second; database ${(size / 2 ** 20).toFixed(0)} MiB`);
console.log(`history read of one series (workload_7 / metric_3): ${series.length.toLocaleString('en')} rows in ${(readSeconds * 1000).toFixed(0)} ms, ${Math.round(series.length / readSeconds).toLocaleString('en')} rows/s`);
rmSync(dir, { recursive: true, force: true });
