/**
 * One night's detection at 20,000 series (issue 25 asks <= 5 s), reading SQLite: `assessNight`
 * (detection's read and judgement, nothing written but the stored run points) on the latest night
 * of a history, read `--reads` times in this process. The first read of a history written before
 * migration 023, or just written, also folds and keeps every run's points. Without `--db` it
 * writes a synthetic history first (5,000 workloads x 4 metrics x 3 repeats x 31 nights, seed 11,
 * a 1.4x step planted on the last night; about 1.9 million values, 3-4 minutes) into a temp folder, or into
 * `--keep DIR` to reuse it. Prints wall and CPU seconds (all threads), the heap, and a hash of the
 * verdicts (equal before and after a change that must not move them).
 *   npx tsx bench/detect-night.ts [--db FILE | --keep DIR] [--workloads 5000] [--nights 31] [--reads 3]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assessNight } from '../src/detect/run.js';
import { defaultDetectionPolicy as policy } from '../src/detect/policy.js';
import { openHistory } from '../src/history/open.js';
import { writeSyntheticHistory } from '../test/helpers/synthetic-history.js';

const { values: args } = parseArgs({
  options: { db: { type: 'string' }, keep: { type: 'string' }, workloads: { type: 'string', default: '5000' }, nights: { type: 'string', default: '31' }, reads: { type: 'string', default: '3' } },
});
const temp = args.db === undefined && args.keep === undefined ? mkdtempSync(path.join(tmpdir(), 'nb-detect-night-')) : undefined;
const file = args.db ?? path.join(args.keep ?? temp!, 'history.sqlite');
try {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const started = performance.now();
    const store = openHistory(file);
    const workloads = Number(args.workloads);
    process.stderr.write(`writing ${workloads} workloads x 4 metrics x 3 repeats x ${args.nights} nights to ${file}\n`);
    writeSyntheticHistory(store, {
      seed: 11, workloads, nights: Number(args.nights), repeats: 3, firstNight: '2025-01-01', samplesForLastNights: 0,
      changes: [{ workload: 'shuffle', metric: 'wall_time', night: Number(args.nights) - 1, factor: 1.4 }],
    });
    store.close();
    console.log(`history written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  for (let read = 1; read <= Number(args.reads); read++) {
    const store = openHistory(file);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const report = assessNight(store, policy, {});
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    store.close();
    const hash = createHash('sha256').update(JSON.stringify(report.verdicts)).digest('hex').slice(0, 16);
    const found = Object.entries(report.counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`).join(', ');
    console.log(
      `read ${read}: night ${report.night}, ${report.verdicts.length} series (${found}): ${wall.toFixed(2)} s wall, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU, ` +
        `heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB, verdicts ${hash}`,
    );
  }
} finally {
  if (temp) rmSync(temp, { recursive: true, force: true });
}
