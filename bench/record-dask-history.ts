/**
 * Re-records the real Dask histories that detection is benchmarked on (issue 10;
 * `../shared/data/dask-history/README.md`): `real.sqlite` and `planted.sqlite`, with nightbench
 * itself, one `nightbench nightly` child process per night, exactly as the nightly workflow would
 * have run on that night:
 *
 * - each calendar night tests the tip of dask `main` (first-parent) at 02:17 UTC, and distributed's
 *   last commit before it (nightbench's own pairing of a git target's repositories);
 * - `real.sqlite` tests the real history; `planted.sqlite` is identical up to the night before
 *   --planted-night (copied from `real.sqlite`), then tests a rewritten history: one extra commit
 *   "Tune random chunk generation" (Pat Planter, dated that night before 02:17) that sleeps 0.15 s
 *   per generated random chunk in `dask/array/random.py`, with the later real commits replayed on
 *   top with their own author and committer dates, so distributed pairs exactly as in the real one;
 * - from the planted night on, real and planted nights are recorded alternately, so both see the
 *   same machine conditions.
 *
 * Resumable: a night already recorded (complete or partial) in an output database is skipped, and
 * the planted repository is built once. Progress goes to stderr and, one line per night, to
 * OUT/progress.log; each child's own output to OUT/logs/. Databases stay out of the repository.
 *
 *   npx tsx bench/record-dask-history.ts --out /work/dask-history \
 *     --dask-repo /work/.mirror/dask+dask/repo --distributed-repo /work/.mirror/dask+distributed/repo
 *
 * The repositories may be bare mirrors or clones (they are only read). The defaults are the
 * README's settings: nights 2022-12-19..2023-01-20, array_reduction and shuffle, 3 repeats, a local
 * cluster of 2 workers x 1 GiB, scale 0.25. A night takes about 40 s on a quiet 2-core machine and
 * 5 minutes on one shared with five other busy helpers; when time is short, `--recent-first
 * 2023-01-05` records the trailing week and the planted nights first and then the earlier nights
 * backwards, and `--stop-after TIME` starts no night after TIME (run the same command again to go on).
 *
 * On a machine shared with other work, give the recording the CPU: run it at `nice -n -15` and
 * the rest at `nice -n 19`, with the kernel's autogroup off (`echo 0 >
 * /proc/sys/kernel/sched_autogroup_enabled`, as root): with it on, each session is scheduled as one
 * group and nice counts only inside it. That took a night from 140-330 s back to 40-60 s.
 *
 * `--loaded-night NIGHT` (repeatable) records that night with two busy loops running (the machine
 * check's measurement, docs/detection.md "The machine or the code"); `--workload array_reduction,canary`
 * records the canary with it.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Command, InvalidArgumentError } from 'commander';
import { git } from '../src/git/git.js';
import { median } from 'simple-statistics';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  out: string;
  daskRepo: string;
  distributedRepo: string;
  firstNight: string;
  lastNight: string;
  plantedNight: string;
  nightTime: string;
  workload: string[];
  repeats: number;
  scale: number;
  workers: number;
  memory: string;
  planted: boolean;
  recentFirst?: string;
  stopAfter?: Date;
  /** Seconds the planted commit sleeps in each generated random chunk. */
  plantedSleep: number;
  /** Nights recorded with the machine loaded on purpose (two busy loops), for the machine-night check. */
  loadedNight: string[];
}

type Variant = 'real' | 'planted';

const plantedSubject = 'Tune random chunk generation';
const plantedAuthor = { name: 'Pat Planter', email: 'pat@example.com' };

function nightOption(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new InvalidArgumentError(`expected a date such as 2023-01-12, got "${value}"`);
  return value;
}

function numberOption(integer: boolean) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0 || (integer && !Number.isInteger(parsed))) throw new InvalidArgumentError(`expected a positive ${integer ? 'whole ' : ''}number, got "${value}"`);
    return parsed;
  };
}

function parseOptions(argv: string[]): Options {
  const program = new Command('record-dask-history')
    .description('re-record real.sqlite and planted.sqlite: one real nightbench nightly per night against dask + distributed from git')
    .option('--out <dir>', 'output directory: the databases, the planted repository, configs, checkouts, logs', '/work/dask-history')
    .option('--dask-repo <path>', 'dask/dask repository (bare mirror or clone; only read)', '/work/.mirror/dask+dask/repo')
    .option('--distributed-repo <path>', 'dask/distributed repository (bare mirror or clone; only read)', '/work/.mirror/dask+distributed/repo')
    .option('--first-night <YYYY-MM-DD>', 'first night to record', nightOption, '2022-12-19')
    .option('--last-night <YYYY-MM-DD>', 'last night to record', nightOption, '2023-01-20')
    .option('--planted-night <YYYY-MM-DD>', 'first night of planted.sqlite that tests the planted history', nightOption, '2023-01-12')
    .option('--planted-sleep <seconds>', 'sleep the planted commit adds to each generated random chunk (only when the planted repository is built)', numberOption(false), 0.15)
    .option('--night-time <HH:MM>', 'UTC time of the nightly: the night tests the tip of main at that time', '02:17')
    .option('--workload <name>', 'workload to run (repeatable, or comma-separated; default array_reduction,shuffle)', (v: string, prev: string[] | undefined) => [...(prev ?? []), ...v.split(',').filter(Boolean)])
    .option('--repeats <n>', 'repeats per workload', numberOption(true), 3)
    .option('--scale <x>', 'data scale', numberOption(false), 0.25)
    .option('--workers <n>', 'local workers', numberOption(true), 2)
    .option('--memory <size>', 'memory per worker', '1GiB')
    .option('--no-planted', 'record only real.sqlite')
    .option('--loaded-night <YYYY-MM-DD>', 'record this night (both variants) with the machine loaded on purpose by two busy loops (repeatable): what src/detect/machine-night.ts must tell from the code', (v: string, prev: string[] | undefined) => [...(prev ?? []), nightOption(v)])
    .option('--recent-first <YYYY-MM-DD>', 'when time is short: record the nights from this one on first, then the earlier ones backwards (each into OUT/early/NIGHT.sqlite, merged into both databases)', nightOption)
    .option('--stop-after <time>', 'start no night after this time (ISO 8601, e.g. 2026-12-03T08:40Z); rerun to continue', (v: string) => {
      const time = new Date(v);
      if (Number.isNaN(time.getTime())) throw new InvalidArgumentError(`expected a time such as 2026-12-03T08:40Z, got "${v}"`);
      return time;
    })
    .showHelpAfterError();
  program.parse(argv, { from: 'user' });
  const options = program.opts<Omit<Options, 'workload'> & { workload?: string[] }>();
  if (!/^\d{2}:\d{2}$/.test(options.nightTime)) program.error(`--night-time must be HH:MM, got "${options.nightTime}"`);
  if (options.recentFirst && (options.recentFirst <= options.firstNight || options.recentFirst > options.plantedNight)) {
    program.error(`--recent-first must be after --first-night and not after --planted-night, got ${options.recentFirst}`);
  }
  if (options.firstNight > options.lastNight) program.error(`--first-night ${options.firstNight} is after --last-night ${options.lastNight}`);
  for (const repo of [options.daskRepo, options.distributedRepo]) if (!existsSync(repo)) program.error(`no repository at ${repo}`);
  return { ...options, out: path.resolve(options.out), workload: options.workload ?? ['array_reduction', 'shuffle'], loadedNight: options.loadedNight ?? [] };
}

function nightsBetween(first: string, last: string): string[] {
  const nights: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000) nights.push(new Date(t).toISOString().slice(0, 10));
  return nights;
}

function note(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(0, 19)}Z ${line}\n`);
}

/** A recorded night: on stderr and as one line of OUT/progress.log. */
function progress(options: Options, line: string): void {
  note(line);
  appendFileSync(path.join(options.out, 'progress.log'), `${new Date().toISOString().slice(0, 19)}Z ${line}\n`);
}

/** The tip of `branch` at the nightly's time of `night`: the newest first-parent commit committed before it. */
async function tipAt(repo: string, branch: string, night: string, time: string): Promise<string> {
  const sha = (await git(['rev-list', '--first-parent', '-1', `--before=${night}T${time}:00Z`, branch], repo)).trim();
  if (!sha) throw new Error(`${repo}: no commit on ${branch} before ${night} ${time} UTC`);
  return sha;
}

/** dask's `_apply_random` generates every chunk of a `da.random` array; the planted commit slows it. */
function plantSleep(source: string, seconds: number): string {
  const chunkLine = /^(def _apply_random\([^)]*\):\n(?:    .*\n|\n)*?)(    state = RandomState\(state_data\)\n)/m;
  if (!chunkLine.test(source) || !/^import numbers\n/m.test(source)) throw new Error('dask/array/random.py: no _apply_random with "state = RandomState(state_data)" (another dask version?)');
  return source
    .replace(/^import numbers\n/m, 'import numbers\nimport time\n')
    .replace(chunkLine, `$1$2    if 0 not in size:  # a real chunk, not the empty meta\n        time.sleep(${seconds})\n`);
}

/**
 * OUT/dask-planted.git: dask's first-parent history up to the last commit before the planted night's
 * nightly, the planted commit, then every later first-parent commit up to the last night replayed
 * with its own author and committer (names and dates), so date pairing with distributed holds.
 */
async function ensurePlantedRepo(options: Options, base: string): Promise<string> {
  const bare = path.join(options.out, 'dask-planted.git');
  if (existsSync(bare)) {
    const subject = (await git(['log', '--format=%s', '--grep', `^${plantedSubject}$`, 'main'], bare).catch(() => '')).trim();
    if (subject !== plantedSubject) throw new Error(`${bare} exists without the planted commit: remove it to rebuild`);
    const lastReal = await tipAt(options.daskRepo, 'main', nextDay(options.lastNight), '00:00');
    const lastPlanted = await tipAt(bare, 'main', nextDay(options.lastNight), '00:00');
    const [realSubject, replayedSubject] = await Promise.all([git(['show', '-s', '--format=%s', lastReal], options.daskRepo), git(['show', '-s', '--format=%s', lastPlanted], bare)]);
    if (realSubject !== replayedSubject) throw new Error(`${bare} was built for fewer nights (its last commit is not "${realSubject.trim()}"): remove it to rebuild`);
    return bare;
  }
  const build = path.join(options.out, 'dask-planted.build');
  rmSync(build, { recursive: true, force: true });
  note(`building the planted repository on ${base.slice(0, 10)}`);
  await git(['clone', '--quiet', '--no-checkout', options.daskRepo, build], options.out);
  await git(['checkout', '--quiet', '-B', 'main', base], build);
  const file = path.join(build, 'dask/array/random.py');
  writeFileSync(file, plantSleep(readFileSync(file, 'utf8'), options.plantedSleep));
  const plantedDate = `${options.plantedNight}T01:00:00+00:00`;
  if (Date.parse(plantedDate) <= Date.parse((await git(['show', '-s', '--format=%cI', base], build)).trim())) throw new Error(`the planted commit's date ${plantedDate} is not after its parent's`);
  await gitWithEnv(['commit', '--quiet', '-am', `${plantedSubject}\n\nPlanted regression of nightbench's Dask history fixture (bench/record-dask-history.ts):\nsleeps ${options.plantedSleep} s in every generated random chunk.`], build, {
    GIT_AUTHOR_NAME: plantedAuthor.name, GIT_AUTHOR_EMAIL: plantedAuthor.email, GIT_AUTHOR_DATE: plantedDate,
    GIT_COMMITTER_NAME: plantedAuthor.name, GIT_COMMITTER_EMAIL: plantedAuthor.email, GIT_COMMITTER_DATE: plantedDate,
  });
  const last = await tipAt(options.daskRepo, 'main', nextDay(options.lastNight), '00:00');
  const later = (await git(['rev-list', '--reverse', '--first-parent', `${base}..${last}`], build)).split('\n').filter(Boolean);
  for (const sha of later) {
    const [name, email, date] = (await git(['show', '-s', '--format=%cn%x1f%ce%x1f%cI', sha], build)).trim().split('\x1f');
    const parents = (await git(['show', '-s', '--format=%P', sha], build)).trim().split(' ');
    await gitWithEnv(['cherry-pick', '--allow-empty', '--keep-redundant-commits', ...(parents.length > 1 ? ['-m', '1'] : []), sha], build, {
      GIT_COMMITTER_NAME: name!, GIT_COMMITTER_EMAIL: email!, GIT_COMMITTER_DATE: date!,
    });
  }
  await git(['init', '--quiet', '--bare', '--initial-branch=main', bare], options.out);
  // The tags too: dask's version (versioneer) is read from them.
  await git(['push', '--quiet', bare, 'main:main', 'refs/tags/*:refs/tags/*'], build);
  rmSync(build, { recursive: true, force: true });
  note(`planted repository ${bare}: planted commit ${(await git(['rev-list', '-1', '--grep', `^${plantedSubject}$`, 'main'], bare)).trim()}, ${later.length} commits replayed`);
  return bare;
}

function nextDay(night: string): string {
  return new Date(Date.parse(`${night}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** `git` with identity variables set: git() reads process.env when it starts the process. */
function gitWithEnv(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return git(args, cwd);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** The nightbench config of one variant: a git target of dask (real or planted) and distributed. */
function writeConfig(options: Options, variant: Variant, daskUrl: string): string {
  const config = {
    target: {
      kind: 'git',
      name: 'dask',
      repositories: [
        { name: 'dask', url: daskUrl, branch: 'main' },
        { name: 'distributed', url: path.resolve(options.distributedRepo), branch: 'main' },
      ],
      setup: { env: { PYTHONPATH: '{checkout:dask}:{checkout:distributed}' } },
    },
    suites: ['dask'],
    workloads: options.workload,
    cluster: { provider: 'local', workers: options.workers, threadsPerWorker: 1, memoryPerWorker: options.memory },
    repeats: options.repeats,
    scale: options.scale,
    workdir: `work-${variant}`,
  };
  const file = path.join(options.out, `nightbench.${variant}.json`);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function databasePath(options: Options, variant: Variant): string {
  return path.join(options.out, `${variant}.sqlite`);
}

interface NightRecord {
  status: string;
  ok: number;
  repeats: number;
  commits: Record<string, string>;
  wallMedians: Record<string, number>;
}

/** What the database holds for `night` (a complete or partial nightly), or undefined. */
function recordedNight(file: string, night: string): NightRecord | undefined {
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const hasRuns = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'`).get();
    if (!hasRuns) return undefined;
    const run = db.prepare(`SELECT id, status FROM runs WHERE kind = 'nightly' AND night = ? AND status IN ('complete', 'partial') ORDER BY started_at DESC LIMIT 1`).get(night) as { id: string; status: string } | undefined;
    if (!run) return undefined;
    const repeats = db.prepare(`SELECT status, COUNT(*) AS n FROM repeats WHERE run_id = ? GROUP BY status`).all(run.id) as { status: string; n: number }[];
    const commits = db.prepare(`SELECT repo, sha FROM run_commits WHERE run_id = ?`).all(run.id) as { repo: string; sha: string }[];
    const walls = db.prepare(`SELECT workload, value FROM results WHERE run_id = ? AND metric = 'wall_time'`).all(run.id) as { workload: string; value: number }[];
    const byWorkload = new Map<string, number[]>();
    for (const w of walls) byWorkload.set(w.workload, [...(byWorkload.get(w.workload) ?? []), w.value]);
    return {
      status: run.status,
      ok: repeats.find((r) => r.status === 'ok')?.n ?? 0,
      repeats: repeats.reduce((sum, r) => sum + r.n, 0),
      commits: Object.fromEntries(commits.map((c) => [c.repo, c.sha])),
      wallMedians: Object.fromEntries([...byWorkload].map(([w, values]) => [w, median(values)])),
    };
  } finally {
    db.close();
  }
}

/** One `nightbench nightly` child for `night` at `commit`; its output goes to OUT/logs/. */
function runNightly(options: Options, variant: Variant, config: string, night: string, commit: string, db: string): Promise<number> {
  const logDir = path.join(options.out, 'logs');
  mkdirSync(logDir, { recursive: true });
  const args = [path.join(repoRoot, 'bin/nightbench.js'), 'nightly', '--config', config, '--db', db, '--night', night, '--commit', commit, '--no-detect'];
  return runNode(args, path.join(logDir, `${night}-${variant}.log`), options.out);
}

/** A node child (the nightbench CLI) with its output appended to `logFile`; SIGINT/SIGTERM are passed on. */
function runNode(args: string[], logFile: string, cwd: string): Promise<number> {
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`$ node ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      log.end();
      resolve(code ?? (signal ? 130 : 1));
    });
  });
}

/**
 * planted.sqlite starts as a consistent copy of real.sqlite holding only the nights before the
 * planted one (nightbench creates it empty when there is no real.sqlite yet).
 */
async function ensurePlantedDatabase(options: Options): Promise<void> {
  const planted = databasePath(options, 'planted');
  if (existsSync(planted) || !existsSync(databasePath(options, 'real'))) return;
  const temporary = `${planted}.copying`;
  rmSync(temporary, { force: true });
  const real = new Database(databasePath(options, 'real'), { readonly: true, fileMustExist: true });
  try {
    const { last } = real.prepare(`SELECT MAX(night) AS last FROM runs`).get() as { last: string | null };
    if (last && last >= options.plantedNight) throw new Error(`real.sqlite already has night ${last}, not before ${options.plantedNight}: cannot start planted.sqlite from it`);
    await real.backup(temporary);
  } finally {
    real.close();
  }
  renameSync(temporary, planted);
  note(`planted.sqlite: copied from real.sqlite (nights before ${options.plantedNight})`);
}

async function recordNight(options: Options, variant: Variant, config: string, repo: string, night: string, db = databasePath(options, variant)): Promise<boolean> {
  const done = recordedNight(db, night);
  if (done) {
    process.stderr.write(`${night} ${variant}: already recorded (${done.status}), skipped\n`);
    return true;
  }
  if (options.stopAfter && Date.now() > options.stopAfter.getTime()) {
    note(`${night} ${variant}: not started, past --stop-after`);
    return false;
  }
  const commit = await tipAt(repo, 'main', night, options.nightTime);
  const started = Date.now();
  const code = await runNightly(options, variant, config, night, commit, db);
  const seconds = Math.round((Date.now() - started) / 1000);
  const recorded = recordedNight(db, night);
  const walls = recorded ? Object.entries(recorded.wallMedians).map(([w, v]) => `${w} ${v.toFixed(2)}s`).join(', ') : '';
  const commits = recorded ? `dask ${recorded.commits.dask?.slice(0, 10)} distributed ${recorded.commits.distributed?.slice(0, 10)}` : `dask ${commit.slice(0, 10)}`;
  progress(options, `${night} ${variant}: exit ${code}, ${recorded ? `${recorded.status}, ${recorded.ok}/${recorded.repeats} ok` : 'not recorded'}, ${commits}, ${seconds}s${walls ? `; median wall ${walls}` : ''}`);
  return code === 0 && recorded?.status === 'complete';
}

/**
 * A night before --recent-first, recorded after the later ones: alone into OUT/early/NIGHT.sqlite,
 * then merged (idempotently) into real.sqlite and, being before the planted night, planted.sqlite.
 */
async function recordEarlyNight(options: Options, config: string, night: string, planted: boolean): Promise<boolean> {
  const early = path.join(options.out, 'early', `${night}.sqlite`);
  mkdirSync(path.dirname(early), { recursive: true });
  const ok = await recordNight(options, 'real', config, options.daskRepo, night, early);
  if (!recordedNight(early, night)) return false;
  for (const variant of planted ? (['real', 'planted'] as const) : (['real'] as const)) {
    const code = await runNode([path.join(repoRoot, 'bin/nightbench.js'), 'db', 'merge', '--quiet', '--db', databasePath(options, variant), early], path.join(options.out, 'logs', `${night}-merge.log`), options.out);
    if (code !== 0) throw new Error(`merging ${early} into ${variant}.sqlite failed (exit ${code}): see logs/${night}-merge.log`);
  }
  return ok;
}

/**
 * Two busy loops (`yes > /dev/null`) for the length of `body`: a machine loaded by something else,
 * as a shared host or CI runner is. Started and ended by their own pids.
 */
async function withBusyLoops<T>(options: Options, night: string, body: () => Promise<T>): Promise<T> {
  const loops = [0, 1].map(() => spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] }));
  progress(options, `${night}: machine loaded on purpose by busy loops ${loops.map((l) => l.pid).join(', ')}`);
  try {
    return await body();
  } finally {
    for (const loop of loops) if (loop.pid !== undefined) process.kill(loop.pid, 'SIGTERM');
    progress(options, `${night}: busy loops ended`);
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  mkdirSync(options.out, { recursive: true });
  const nights = nightsBetween(options.firstNight, options.lastNight);
  const realConfig = writeConfig(options, 'real', path.resolve(options.daskRepo));
  const plantedNights = options.planted ? nights.filter((n) => n >= options.plantedNight) : [];
  let plantedConfig: string | undefined;
  let plantedRepo: string | undefined;
  if (plantedNights.length > 0) {
    plantedRepo = await ensurePlantedRepo(options, await tipAt(options.daskRepo, 'main', options.plantedNight, options.nightTime));
    plantedConfig = writeConfig(options, 'planted', plantedRepo);
  }
  note(`recording ${nights.length} nights ${options.firstNight}..${options.lastNight} (${plantedNights.length} planted) into ${options.out}`);
  let allGood = true;
  const recent = options.recentFirst;
  for (const night of recent ? nights.filter((n) => n >= recent) : nights) {
    const planted = plantedRepo && plantedConfig && plantedNights.includes(night) ? { repo: plantedRepo, config: plantedConfig } : undefined;
    if (planted) await ensurePlantedDatabase(options);
    const record = async () => {
      let good = await recordNight(options, 'real', realConfig, options.daskRepo, night);
      if (planted) good = (await recordNight(options, 'planted', planted.config, planted.repo, night)) && good;
      return good;
    };
    allGood = (await (options.loadedNight.includes(night) ? withBusyLoops(options, night, record) : record())) && allGood;
  }
  // Backwards from the recent ones, so the recorded nights stay one unbroken span whenever it stops.
  for (const night of recent ? nights.filter((n) => n < recent).reverse() : []) {
    allGood = (await recordEarlyNight(options, realConfig, night, plantedNights.length > 0)) && allGood;
  }
  note(allGood ? 'done: every night complete' : 'done, with nights that are not complete: see above');
  return allGood ? 0 : 1;
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`record-dask-history: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
