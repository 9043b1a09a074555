/**
 * `nightbench report` over a real SQLite history: what it writes, that it rebuilds
 * incrementally (drill-downs of finished runs are kept, stale files removed) into exactly the
 * site a build from nothing writes, and the CLI.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { openHistory } from '../../src/history/open.js';
import { silentLog } from '../../src/log.js';
import { buildSite, type BuildSiteOptions } from '../../src/report/build.js';
import { startOffThread } from '../../src/report/off-thread.js';
import { sitePaths } from '../../src/report/paths.js';
import type { ReportRun } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';
import { writeSyntheticHistory } from '../helpers/synthetic-history.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
let dbFile: string;

beforeAll(() => {
  dir = tempDir('nightbench-report-');
  dbFile = path.join(dir, 'history.sqlite');
  const store = openHistory(dbFile);
  writeSyntheticHistory(store, { seed: 3, workloads: 4, nights: 12, repeats: 2 });
  store.close();
});


describe('buildSite', () => {
  it('keeps the drill-downs of finished runs, writes those of a new night and removes stale files', async () => {
    const store = openHistory(dbFile);
    const site = path.join(dir, 'incremental');
    const options = siteOptions(store, site, '2026-01-13', { drilldownNights: 2 });
    try {
      const first = await buildSite(options);
      expect(first).toMatchObject({ workloads: 4, series: 16, drilldowns: { written: 8, kept: 0 }, abReports: 0 });
      mkdirSync(path.join(site, 'workloads', 'gone'), { recursive: true });
      writeFileSync(path.join(site, 'workloads', 'gone', 'old.html'), 'stale');
      // Files are rewritten in place: one longer than its new content is cut to it.
      const index = readFileSync(path.join(site, sitePaths.index), 'utf8');
      writeFileSync(path.join(site, sitePaths.index), `${index}<p>left over</p>`);

      const second = await buildSite(options);
      expect(second.drilldowns).toEqual({ written: 0, kept: 8 });
      expect(second.files).toBe(first.files);
      expect(second.bytes).toBe(first.bytes);
      expect(readFileSync(path.join(site, sitePaths.index), 'utf8')).toBe(index);
      expect(existsSync(path.join(site, 'workloads', 'gone'))).toBe(false);

      writeSyntheticHistory(store, { seed: 4, workloads: 4, nights: 1, repeats: 2, firstNight: '2026-01-13', samplesForLastNights: 1 });
      const third = await buildSite({ ...options, now: new Date('2026-01-14T06:00:00Z') });
      // The new night's 4 drill-downs are new; of the 8 kept before, the 4 of the night now too old are gone.
      expect(third.drilldowns).toEqual({ written: 4, kept: 4 });
      expect(third.largest.bytes).toBeLessThan(2 * 2 ** 20);

      // The night's increment is exactly the site a build from an empty folder writes.
      const fromNothing = path.join(dir, 'from-nothing');
      await buildSite({ ...options, outDir: fromNothing, now: new Date('2026-01-14T06:00:00Z') });
      expect(siteFiles(site)).toEqual(siteFiles(fromNothing));
    } finally {
      store.close();
    }
  });

  it("writes again the drill-downs of a run that was still being written when they were, once it is finished", async () => {
    const file = path.join(dir, 'unfinished.sqlite');
    const store = openHistory(file);
    const history = writeSyntheticHistory(store, { seed: 6, workloads: 3, nights: 3, repeats: 2 });
    const runId = history.runIds[history.clusterShapes[0]!]!.at(-1)!;
    const db = new Database(file);
    const setStatus = (status: string) => db.prepare('UPDATE runs SET status = ? WHERE id = ?').run(status, runId);
    const site = path.join(dir, 'unfinished-site');
    const options = siteOptions(store, site, '2026-01-04', { drilldownNights: 1 });
    try {
      setStatus('running');
      expect((await buildSite(options)).drilldowns).toEqual({ written: 3, kept: 0 });
      const marker = path.join(site, sitePaths.drilldownUnfinished('dask', runId));
      expect(existsSync(marker)).toBe(true);
      // As if the run recorded more after the build: what the parts hold then is not the run's last word.
      const part = path.join(site, sitePaths.drilldownData('dask', history.workloads[0]!, runId));
      writeFileSync(part, 'written mid-run');

      setStatus('complete');
      expect((await buildSite(options)).drilldowns).toEqual({ written: 3, kept: 0 });
      expect(existsSync(marker)).toBe(false);
      expect(readFileSync(part, 'utf8')).not.toBe('written mid-run');
      expect((await buildSite(options)).drilldowns).toEqual({ written: 0, kept: 3 });
      await buildSite({ ...options, outDir: path.join(dir, 'finished-site') });
      expect(siteFiles(site)).toEqual(siteFiles(path.join(dir, 'finished-site')));
    } finally {
      db.close();
      store.close();
    }
  });

  it('writes again a drill-down part a killed build left unfinished, and removes what it left', async () => {
    const store = openHistory(dbFile);
    const site = path.join(dir, 'killed-build');
    const options = siteOptions(store, site, '2026-01-13', { drilldownNights: 1 });
    try {
      const first = await buildSite(options);
      const built = siteFiles(site);
      const parts = readdirSync(site, { recursive: true, encoding: 'utf8' }).filter((file) => file.includes('/drilldowns/') && file.endsWith('.js'));
      expect(parts.length).toBeGreaterThan(0);
      expect(readdirSync(site, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.writing'))).toEqual([]);
      // What a build killed while writing a part leaves: the part's bytes so far under the name it
      // is written as, and no part in its place.
      const part = path.join(site, parts[0]!);
      writeFileSync(`${part}.writing`, readFileSync(part, 'utf8').slice(0, 100));
      rmSync(part);
      const again = await buildSite(options);
      expect(again.drilldowns.written).toBeGreaterThan(0);
      expect(existsSync(`${part}.writing`)).toBe(false);
      expect(again.files).toBe(first.files);
      expect(siteFiles(site)).toEqual(built);
    } finally {
      store.close();
    }
  });

  it("writes the drill-downs and the workload pages' markup in a worker thread into exactly the site this thread writes, and says when the worker fails", async () => {
    const store = openHistory(dbFile);
    const options = siteOptions(store, path.join(dir, 'drilldowns-here'), '2026-01-13', { workerFrom: Infinity });
    try {
      const here = await buildSite(options);
      const inWorker = await buildSite({ ...options, outDir: path.join(dir, 'drilldowns-in-worker'), workerFrom: 1 });
      expect(inWorker.drilldowns).toEqual(here.drilldowns);
      expect(here.drilldowns.written).toBeGreaterThan(0);
      expect(siteFiles(path.join(dir, 'drilldowns-in-worker'))).toEqual(siteFiles(path.join(dir, 'drilldowns-here')));
    } finally {
      store.close();
    }
    // The worker opens the history on its own: a file it cannot read fails the build with the
    // store's one-line error (this thread, reading through its own connection, would not fail).
    const notHistory = path.join(dir, 'not-a-history.sqlite');
    writeFileSync(notHistory, 'not a database');
    const jobs = [{ path: 'data/x/0.js', run: { id: 'r' } as ReportRun, workloads: ['w'], commits: [] }];
    const worker = startOffThread({ root: path.join(dir, 'worker-fails'), generatedAt: '2026-01-13T06:00:00Z', drilldowns: jobs, pages: 0, history: { file: notHistory, runWorkload: () => [] }, workerFrom: 1 });
    await expect(worker.finish()).rejects.toThrow(/not-a-history\.sqlite/);
  });

  it('writes the same drill-downs from samples recorded before their timelines were (db/migrations/028)', async () => {
    const file = path.join(dir, 'timelines.sqlite');
    const store = openHistory(file);
    writeSyntheticHistory(store, { seed: 5, workloads: 3, nights: 4, repeats: 2 });
    const options = siteOptions(store, path.join(dir, 'recorded'), '2026-01-05');
    try {
      expect((await buildSite(options)).drilldowns.written).toBe(6);
      const db = new Database(file);
      expect(db.prepare('DELETE FROM repeat_timelines').run().changes).toBeGreaterThan(0);
      db.close();
      await buildSite({ ...options, outDir: path.join(dir, 'cut-from-samples') });
    } finally {
      store.close();
    }
    expect(siteFiles(path.join(dir, 'cut-from-samples'))).toEqual(siteFiles(path.join(dir, 'recorded')));
  });
});

/** Every file of a site by its path, as text. */
/** A build of `store` into `outDir` on the morning after `night`, without links. */
function siteOptions(store: BuildSiteOptions['store'], outDir: string, night: string, more: Partial<BuildSiteOptions> = {}): BuildSiteOptions {
  return {
    store, outDir, policy: defaultDetectionPolicy, now: new Date(`${night}T06:00:00Z`), log: silentLog,
    commitUrl: () => undefined, issueUrl: () => undefined, episodeIssueFingerprint, ...more,
  };
}

function siteFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(root, full), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

describe('nightbench report', () => {
  it('builds the site and describes it as JSON', async () => {
    const out = path.join(dir, 'cli-site');
    const result = await runCli(['report', '--db', dbFile, '--out', out, '--json'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { outDir: string; pages: number; workloads: number };
    expect(summary).toMatchObject({ outDir: out, workloads: 4 });
    expect(readFileSync(path.join(out, sitePaths.index), 'utf8')).toContain('<title>Nightly history · nightbench</title>');
    expect(existsSync(path.join(out, sitePaths.abIndex))).toBe(true);
  });

  it('fails with one line when the history cannot be opened', async () => {
    const garbage = path.join(dir, 'not-a-db.sqlite');
    writeFileSync(garbage, 'this is not a SQLite database, just text that is long enough to be read as a header'.repeat(20));
    const result = await runCli(['report', '--db', garbage, '--out', path.join(dir, 'x')], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('not-a-db.sqlite');
  });
});
