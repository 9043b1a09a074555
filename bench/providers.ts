/**
 * How much localhost hides: the Dask suite on `local`, on `netns` unshaped, and on `netns` at 100
 * and 20 Mbit/s per host, same cluster size and data. Prints each workload's median wall time per
 * provider as a ratio to `local`, and the bytes the netns hosts sent. Needs root (namespaces).
 *   npx tsx bench/providers.ts [--workers 2] [--memory 2GiB] [--repeats 3] [--scale 1] [--workload NAME]...
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openHistory } from '../src/history/open.js';
import { summarize } from '../src/stats/index.js';
import { runConfig } from './run-child.js';

const { values: flags } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    memory: { type: 'string', default: '2GiB' },
    repeats: { type: 'string', default: '3' },
    scale: { type: 'string', default: '1' },
    workload: { type: 'string', multiple: true, default: [] },
  },
});

const variants = [
  { name: 'local', provider: 'local', options: {} },
  { name: 'netns', provider: 'netns', options: {} },
  { name: 'netns 100 Mbit/s', provider: 'netns', options: { link: { bandwidthMbit: 100 } } },
  { name: 'netns 20 Mbit/s', provider: 'netns', options: { link: { bandwidthMbit: 20 } } },
];

const dir = mkdtempSync(path.join(tmpdir(), 'nb-bench-providers-'));
const db = path.join(dir, 'history.sqlite');

const runIds = new Map<string, string>();
for (const variant of variants) {
  const config = path.join(dir, `${variant.name.replaceAll(/\W+/g, '-')}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      suites: ['dask'],
      cluster: { provider: variant.provider, workers: Number(flags.workers), memoryPerWorker: flags.memory, options: variant.options },
      repeats: Number(flags.repeats),
      scale: Number(flags.scale),
      history: { path: db },
      workdir: path.join(dir, 'work'),
    }),
  );
  runIds.set(variant.name, runConfig(config, flags.workload, variant.name));
}

const store = openHistory(db);
const rows = store.runs.resultRows({ runIds: [...runIds.values()] }).filter((r) => r.status === 'ok' && r.value !== null);
store.close();
const variantOf = new Map([...runIds].map(([name, id]) => [id, name]));
const median = (workload: string, variant: string, metric: string): number | undefined => {
  const values = rows.filter((r) => r.workload === workload && variantOf.get(r.runId) === variant && r.metric === metric).map((r) => r.value!);
  return values.length > 0 ? summarize(values).median : undefined;
};

const workloads = [...new Set(rows.map((r) => r.workload))].sort();
const cell = (value: number | undefined, base: number | undefined) =>
  value === undefined ? 'failed' : `${value.toFixed(2)} s${base !== undefined ? ` (${(value / base).toFixed(2)}x)` : ''}`;
const header = ['workload', ...variants.map((v) => v.name), 'netns MB sent'];
const table = workloads.map((workload) => {
  const base = median(workload, 'local', 'wall_time');
  const sent = median(workload, 'netns', 'network_bytes_sent');
  return [workload, ...variants.map((v) => cell(median(workload, v.name, 'wall_time'), v.name === 'local' ? undefined : base)), sent === undefined ? '-' : (sent / 1e6).toFixed(1)];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`median wall time of ${flags.repeats} repeats, ${flags.workers} workers of ${flags.memory}, scale ${flags.scale}; ratio to local in brackets`);
console.log(line(header));
for (const row of table) console.log(line(row));
console.log(`history: ${db}`);
