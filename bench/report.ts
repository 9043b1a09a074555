/**
 * Build time and size of the site for a year of history: by default 500 workloads x 4 metrics x
 * 365 nights x 3 repeats (2.19 million values), samples for the last 2 nights, one planted
 * regression found by detection. Targets: build under 30 s, site under 50 MB, no page or data
 * file over 2 MB (issue 25: 5,000 workloads x 4 metrics in <= 60 s, a night's increment <= 5 s).
 *   npx tsx bench/report.ts [--keep DIR] [--workloads N] [--nights N] [--detect-nights N]
 * (--keep reuses/keeps the history and site in DIR; a kept history keeps its own size.
 * --detect-nights, default 20, is how many nights before the latest detection judges one by one
 * when writing the history: at 5,000 workloads each night takes about half a minute, and the
 * planted regression, 15 nights back, needs 15 of them to become an episode.)
 * Also times a second build over the same site (drill-downs kept), and a night's increment: the
 * site as built a night ago (from a copy of the history without the latest night's runs, kept in
 * DIR as night-old.sqlite), then the build once the latest night is recorded, as a nightly builds
 * it: every workload has a new point, the new night's drill-downs are written and the oldest
 * night's leave (the latest night's detection is stored, as the nightly's detect stores it, so
 * the site reads it).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { assessNight, defaultDetectionPolicy as policy, detectRegressions, judgedNight } from '../src/detect/index.js';
import { openHistory } from '../src/history/open.js';
import { silentLog } from '../src/log.js';
import { buildSite, type BuildSummary } from '../src/report/build.js';
import { detectEachNight, writeSyntheticHistory } from '../test/helpers/synthetic-history.js';
import { episodeIssueFingerprint } from '../src/issues/group.js';

const { values: flags } = parseArgs({ options: { keep: { type: 'string' }, workloads: { type: 'string', default: '500' }, nights: { type: 'string', default: '365' }, 'detect-nights': { type: 'string', default: '20' } } });
const dir = flags.keep ? path.resolve(flags.keep) : mkdtempSync(path.join(tmpdir(), 'nightbench-bench-report-'));
mkdirSync(dir, { recursive: true });
const dbFile = path.join(dir, 'history.sqlite');
const site = path.join(dir, 'site');

const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1e6).toFixed(1);
};
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

const fresh = !existsSync(dbFile);
const store = openHistory(dbFile);
try {
  if (fresh) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const history = writeSyntheticHistory(store, {
      seed: 11, workloads: Number(flags.workloads), nights: Number(flags.nights), repeats: 3, firstNight: '2025-01-01', samplesForLastNights: 2,
      changes: [{ workload: 'shuffle', metric: 'wall_time', night: Number(flags.nights) - 15, factor: 1.4 }],
    });
    console.log(`generated the history (${history.workloads.length} workloads x ${history.metrics.length} metrics x ${history.nights.length} nights x 3 repeats) in ${seconds(started)} s (${cpuSeconds(cpu)} s CPU); ${mb(statSync(dbFile).size)} MB`);
    const detectStarted = performance.now();
    const detectNights = Number(flags['detect-nights']);
    detectEachNight(store, policy, detectNights > 0 ? history.nights.slice(-detectNights - 1, -1) : []);
    const lastStarted = performance.now();
    const lastCpu = process.cpuUsage();
    const last = detectRegressions(store, policy, { now: history.nights.at(-1) });
    console.log(
      `detection night by night over the ${detectNights} nights before the latest: ${seconds(detectStarted)} s; the latest night alone (reading SQLite, issue 25: <= 5 s at 20,000 series): ` +
        `${seconds(lastStarted)} s (${cpuSeconds(lastCpu)} s CPU), ${last.verdicts.length} series, heap ${mb(process.memoryUsage().heapUsed)} MB after`,
    );
    // What the summary and the site then read: the verdicts detect stored, against judging the night again.
    const readStarted = performance.now();
    const readCpu = process.cpuUsage();
    const stored = judgedNight(store, policy);
    const readSeconds = seconds(readStarted);
    const readCpuSeconds = cpuSeconds(readCpu);
    const againStarted = performance.now();
    const againCpu = process.cpuUsage();
    assessNight(store, policy);
    console.log(`the latest night's verdicts read back as detect stored them (stored: ${stored.stored}): ${readSeconds} s (${readCpuSeconds} s CPU); judged again instead: ${seconds(againStarted)} s (${cpuSeconds(againCpu)} s CPU)`);
  } else {
    console.log(`reusing the history in ${dbFile}`);
    // Verdicts stored by an older verdict format or version do not hold: every build would judge the night again.
    if (!judgedNight(store, policy).stored) console.log('its stored verdicts of the latest night do not hold (another verdict format or version): every build below judges the night again (3.5 s CPU at 20,000 series); write a new history in another --keep folder');
  }

  const build = async (label: string, from = store) => {
    const summary = await buildSite({
      store: from, outDir: site, policy, now: new Date('2026-01-01T06:00:00Z'), log: silentLog,
      commitUrl: (repo, sha) => `https://github.com/${repo}/commit/${sha}`, issueUrl: (n) => `https://github.com/dask/dask/issues/${n}`, episodeIssueFingerprint,
    });
    report(label, summary);
    return summary;
  };
  rmSync(site, { recursive: true, force: true });
  const first = await build('build (empty site folder)');
  await build('rebuild (drill-downs kept)');
  const nightOld = openHistory(nightOldHistory(store.runs.latestNightlyNight()!));
  try {
    await build('the site a night ago (the history without the latest night)', nightOld);
  } finally {
    nightOld.close();
  }
  await build("night's increment (the latest night recorded since)");
  const ok = first.seconds.total < 30 && first.bytes < 50e6 && first.largest.bytes < 2 * 2 ** 20;
  console.log(`targets (build < 30 s, site < 50 MB, every file < 2 MB): ${ok ? 'met' : 'NOT met'}`);
} finally {
  store.close();
  if (!flags.keep) rmSync(dir, { recursive: true, force: true });
}

/** The history as it was before `night` was recorded: a copy without that night's nightly runs (made once, kept with --keep). */
function nightOldHistory(night: string): string {
  const file = path.join(dir, 'night-old.sqlite');
  if (existsSync(file)) return file;
  const copying = `${file}.copying`;
  rmSync(copying, { force: true });
  // VACUUM INTO copies what the open history holds, its write-ahead log included.
  const source = new Database(dbFile, { readonly: true });
  source.prepare('VACUUM INTO ?').run(copying);
  source.close();
  const db = new Database(copying);
  // The runs' repeats, values and samples go with them (ON DELETE CASCADE).
  db.pragma('foreign_keys = ON');
  db.prepare("DELETE FROM runs WHERE kind = 'nightly' AND night = ?").run(night);
  db.close();
  renameSync(copying, file);
  return file;
}

function report(label: string, s: BuildSummary): void {
  const cpu = s.cpuSeconds;
  console.log(
    `${label}: ${cpu.total.toFixed(1)} s CPU (read ${cpu.read.toFixed(1)}, derive ${cpu.derive.toFixed(1)}, write ${cpu.write.toFixed(1)}), ` +
      `${s.seconds.total.toFixed(1)} s wall (read ${s.seconds.read.toFixed(1)}, derive ${s.seconds.derive.toFixed(1)}, write ${s.seconds.write.toFixed(1)}); ` +
      `${s.files} files, ${s.pages} pages, ${s.workloads} workloads, ${s.series} series, drill-downs ${s.drilldowns.written} written / ${s.drilldowns.kept} kept; ` +
      `${mb(s.bytes)} MB in all, largest ${s.largest.path} ${mb(s.largest.bytes)} MB`,
  );
}
