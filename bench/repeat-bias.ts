/**
 * Is the first repeat like the others? Runs the Dask suite with 5 repeats on the local cluster and
 * prints, per workload and metric, the median over rounds of (repeat 1 / median of repeats 2..R).
 * Before and after are measured in the same run, interleaved workload by workload (each variant
 * taking each place in the order in turn), so a busy machine weighs on all alike:
 * "before" is the suite as it was at --before (a git ref) with no warm-up repeat, "after" the suite
 * of this tree without and with one warm-up repeat.
 * The table is printed after every round, so a long run that has to be stopped still leaves figures.
 *   npx tsx bench/repeat-bias.ts [--before REF] [--repeats 5] [--rounds 1] [--scale 1] [--workers 2] [--memory 2GiB]
 *     [--workload NAME]... [--variant before|after|after+warmup]...
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import { openHistory } from '../src/history/open.js';
import type { ResultRow } from '../src/history/types.js';
import { firstRepeatRatios } from '../src/runner/repeat-bias.js';
import { medianInterval } from '../src/stats/index.js';
import { runConfig } from './run-child.js';

const { values: flags } = parseArgs({
  options: {
    before: { type: 'string', default: 'e92cbe4' },
    repeats: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '1' },
    workers: { type: 'string', default: '2' },
    memory: { type: 'string', default: '2GiB' },
    scale: { type: 'string', default: '1' },
    workload: { type: 'string', multiple: true, default: [] },
    variant: { type: 'string', multiple: true, default: [] },
  },
});

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'nb-bench-bias-'));
const db = path.join(dir, 'history.sqlite');

// The suite as it was before: the same files at another commit, in a folder of its own.
const beforeRoot = path.join(dir, 'before');
mkdirSync(beforeRoot);
const archive = execFileSync('git', ['archive', flags.before, 'workloads/dask'], { cwd: root });
execFileSync('tar', ['-x', '-C', beforeRoot], { input: archive });

const allVariants = [
  { name: 'before', suite: path.join(beforeRoot, 'workloads/dask'), extra: { warmupRepeats: 0 } },
  { name: 'after', suite: path.join(root, 'workloads/dask'), extra: { warmupRepeats: 0 } },
  { name: 'after+warmup', suite: path.join(root, 'workloads/dask'), extra: { warmupRepeats: 1 } },
] as const;
const unknownVariant = flags.variant.find((name) => !allVariants.some((v) => v.name === name));
if (unknownVariant) throw new Error(`unknown --variant ${unknownVariant}: choose from ${allVariants.map((v) => v.name).join(', ')}`);
const variants = flags.variant.length > 0 ? allVariants.filter((v) => flags.variant.includes(v.name)) : allVariants;

function configFor(variant: (typeof variants)[number]): string {
  const file = path.join(dir, `${variant.name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      suites: [variant.suite],
      cluster: { provider: 'local', workers: Number(flags.workers), memoryPerWorker: flags.memory },
      repeats: Number(flags.repeats),
      scale: Number(flags.scale),
      history: { path: db },
      workdir: path.join(dir, 'work'),
      ...variant.extra,
    }),
  );
  return file;
}
const configs = new Map(variants.map((v) => [v.name, configFor(v)]));

function run(variant: (typeof variants)[number]['name'], workload: string): string {
  return runConfig(configs.get(variant)!, [workload], `${variant} ${workload}`);
}

// The default suite: every workload the suite lists.
const listing = spawnSync('/usr/bin/python3', [path.join(root, 'workloads/dask/harness.py'), 'list'], { encoding: 'utf8' });
const known = (JSON.parse(listing.stdout) as { workloads: { name: string }[] }).workloads.map((w) => w.name);
const workloads = flags.workload.length > 0 ? flags.workload : known;

const runsOf = new Map<string, string[]>(variants.map((v) => [v.name, []]));
const metrics = ['wall_time', 'cpu_time'];
const percent = (ratio: number | undefined) => (ratio === undefined ? '-' : `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`);

function printTable(rounds: number): void {
  const store = openHistory(db);
  const rowsOf = (variant: string): ResultRow[] => store.runs.resultRows({ runIds: runsOf.get(variant)! });
  const ratios = new Map<string, Map<string, Record<string, number[]>>>(variants.map((v) => [v.name, firstRepeatRatios(rowsOf(v.name), metrics)]));
  store.close();
  const cell = (variant: string, workload: string, metric: string) => {
    const runs = ratios.get(variant)!.get(workload)?.[metric];
    return runs ? percent(median(runs)) : '-';
  };
  const header = ['workload', ...metrics.flatMap((m) => variants.map((v) => `${m.replace('_time', '')} ${v.name}`))];
  const table = workloads.map((w) => [w, ...metrics.flatMap((m) => variants.map((v) => cell(v.name, w, m)))]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(
    `repeat 1 against the median of repeats 2..${flags.repeats} (median over ${rounds} round(s)); ${flags.workers} workers of ${flags.memory}, scale ${flags.scale}; before = suite at ${flags.before}, no warm-up; after = this suite, without and with 1 warm-up repeat`,
  );
  console.log(line(header));
  for (const row of table) console.log(line(row));
  // One ratio of one run is as noisy as a repeat (5-15% here), so a workload's cell needs many
  // rounds to show a few percent; every run of every workload together tells whether the first
  // repeat is systematically off, with an interval that assumes nothing about the ratios.
  for (const metric of metrics) {
    for (const variant of variants) {
      const all = [...ratios.get(variant.name)!.values()].flatMap((perMetric) => perMetric[metric] ?? []);
      if (all.length === 0) continue;
      const pooled = medianInterval(all);
      console.log(`all workloads, ${metric} ${variant.name}: ${percent(pooled.median)} (${(pooled.coverage * 100).toFixed(0)}% interval ${percent(pooled.low)}..${percent(pooled.high)}, ${pooled.n} runs)`);
    }
  }
  console.log(`history: ${db}\n`);
}

for (let round = 0; round < Number(flags.rounds); round++) {
  for (const [index, workload] of workloads.entries()) {
    // Each variant takes each place in the order in turn.
    const shift = (round + index) % variants.length;
    for (const variant of [...variants.slice(shift), ...variants.slice(0, shift)]) runsOf.get(variant.name)!.push(run(variant.name, workload));
  }
  printTable(round + 1);
}
