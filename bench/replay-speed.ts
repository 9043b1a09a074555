/**
 * `nightbench replay` over 200,000 values and four years: 46 workloads x 1 metric x 3 repeats x
 * 1,461 nights, written through HistoryStore with two planted steps and a planted blip, then
 * replayed by the real CLI (its own process, as a user runs it). Prints the writing and the
 * replay's wall time and what it found; the target is well under a minute for the replay.
 *   npx tsx bench/replay-speed.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openHistory } from '../src/history/open.js';
import { runCli } from '../test/helpers/cli.js';
import { writeSyntheticHistory } from '../test/helpers/synthetic-history.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nb-replay-bench-'));
try {
  const db = path.join(dir, 'history.sqlite');
  let started = performance.now();
  const store = openHistory(db);
  const history = writeSyntheticHistory(store, {
    seed: 30, workloads: 46, metrics: [{ name: 'wall_time', unit: 's' }], nights: 1461, repeats: 3, samplesForLastNights: 0, firstNight: '2022-01-01',
    changes: [
      { workload: 'shuffle', metric: 'wall_time', night: 400, factor: 1.5 },
      { workload: 'groupby', metric: 'wall_time', night: 900, factor: 2 },
      { workload: 'join', metric: 'wall_time', night: 1200, factor: 1.6, recoversAt: 1202 },
    ],
  });
  store.close();
  console.log(`wrote ${history.nights.length} nights x ${history.workloads.length} workloads x 3 repeats in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  const result = await runCli(['replay', '--db', db, '--from', history.nights[0]!, '--to', history.nights.at(-1)!, '--json'], { cwd: dir, timeoutMs: 900_000 });
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`replay exited ${result.code}: ${result.stderr.slice(-2000)}`);
  const outcome = JSON.parse(result.stdout);
  console.log(`replay (CLI, wall): ${seconds.toFixed(1)} s; replay's own time ${outcome.seconds.toFixed(1)} s over ${outcome.values} values, ${outcome.nights} nights, ${outcome.series} series`);
  console.log(`issues ${outcome.totals.issues} (${outcome.totals.stillOpen} still open), transient ${outcome.totals.transient.transient} of ${outcome.totals.transient.judged}, per year ${JSON.stringify(outcome.totals.perYear)}`);
  for (const issue of outcome.issues) console.log(`  ${issue.openedNight} ${issue.series.map((s: { workload: string; change: number }) => `${s.workload} ${(s.change * 100).toFixed(0)}%`).join(', ')} ${issue.closedNight ? `closed ${issue.closedNight}` : 'open'}${issue.transient ? ' transient' : ''}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
