/**
 * The machine-night check on a recorded Dask history (docs/detection.md "The machine or the code"): replays
 * `real.sqlite` and `planted.sqlite` of bench/record-dask-history.ts (recorded with
 * `--loaded-night` and the canary) night by night through what the nightly does after recording,
 * detection then issues (as Markdown files, no GitHub), on a copy of each database, and prints per
 * night whether it was a machine night, what detection opened and which issues were filed.
 *
 *   npx tsx bench/machine-replay.ts --dir /tmp/sense-machine
 *
 * @module
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { loadConfig } from '../src/config/load.js';
import { openHistory } from '../src/history/open.js';
import type { Log } from '../src/log.js';
import { detectAndPublish } from '../src/nightly/issues.js';

const quiet: Log = { info: () => {}, debug: () => {}, warn: () => {} };

async function replay(dir: string, variant: 'real' | 'planted'): Promise<void> {
  const recorded = path.join(dir, `${variant}.sqlite`);
  if (!existsSync(recorded)) return;
  const copy = path.join(dir, `replay-${variant}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  // A consistent copy even while the recorder is still writing the database.
  const source = new Database(recorded, { readonly: true, fileMustExist: true });
  await source.backup(copy);
  source.close();
  const base = loadConfig({ file: path.join(dir, `nightbench.${variant}.json`) });
  const issuesDir = `replay-${variant}-reports`;
  rmSync(path.join(dir, issuesDir), { recursive: true, force: true });
  const loaded = { ...base, config: { ...base.config, reports: { dir: issuesDir } } };
  const store = openHistory(copy);
  try {
    const nights = [...new Set(store.runs.resultRows({ kind: 'nightly' }).map((row) => row.night))].sort();
    process.stdout.write(`${variant}.sqlite, ${nights.length} nights\n`);
    for (const night of nights) {
      const result = await detectAndPublish(loaded, store, quiet, { night });
      const machine = store.episodes.machineNights({ sinceNight: night }).find((m) => m.night === night);
      const opened = store.episodes.episodes().filter((e) => e.lastNight === night && e.state === 'open');
      const filed = (result.outcomes ?? []).filter((o) => o.action.kind === 'open');
      const waiting = result.actions.filter((a) => a.kind === 'skip' && a.reason.startsWith('waiting'));
      process.stdout.write(
        `  ${night}  ${machine?.machine ? `MACHINE (${machine.reason})` : `ok (${machine?.reason ?? 'not judged'})`}\n` +
          `    opened: ${opened.map((e) => `${e.identity.workload} ${e.identity.metric} ${e.kind} ${((e.ratio - 1) * 100).toFixed(1)}%`).join(', ') || 'none'}\n` +
          `    issues filed: ${filed.map((o) => o.action.group.series.map((s) => `${s.workload} ${s.metric}`).join(' + ')).join('; ') || 'none'}${waiting.length ? `; waiting: ${waiting.length} group(s)` : ''}\n`,
      );
    }
  } finally {
    store.close();
  }
  const files = existsSync(path.join(dir, issuesDir, 'issues')) ? readdirSync(path.join(dir, issuesDir, 'issues')).filter((f) => f.endsWith('.md')) : [];
  process.stdout.write(`  issue files: ${files.length}\n`);
}

const options = new Command('machine-replay').requiredOption('--dir <dir>', 'the --out directory of bench/record-dask-history.ts').parse().opts<{ dir: string }>();
for (const variant of ['real', 'planted'] as const) await replay(path.resolve(options.dir), variant);
