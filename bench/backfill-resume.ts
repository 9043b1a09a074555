/**
 * A backfill killed outright halfway and started again, as a runner's time limit or an out-of-memory
 * kill would leave it: are all nights recorded once, how long did it take, and does judging the
 * backfill find the episodes `nightbench detect` finds when replayed night by night on the same
 * history? Runs the real CLI in `--dir` with the config there (a git target of dask/distributed
 * mirrors, or the installed default); prints the figures as JSON on stdout.
 *   npx tsx bench/backfill-resume.ts --dir DIR --from 2022-12-01 --to 2022-12-31 --kill-at 16 [-- backfill flags...]
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags, positionals: extra } = parseArgs({
  options: { dir: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'kill-at': { type: 'string', default: '16' } },
  allowPositionals: true,
});
if (!flags.dir || !flags.from || !flags.to) throw new Error('usage: --dir DIR --from D1 --to D2 [--kill-at N] [-- backfill flags]');
const dir = flags.dir;
const cli = fileURLToPath(new URL('../bin/nightbench.js', import.meta.url));
const range = ['--from', flags.from, '--to', flags.to, ...extra];

/** The CLI in `dir`; with `killAt`, SIGKILLed once the killAt-th night has measured its first repeat. */
function nightbench(args: string[], killAt?: number): Promise<{ code: number | null; stdout: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr += chunk.toString();
      const at = killAt === undefined ? -1 : stderr.search(new RegExp(`night \\S+ \\(${killAt}/`));
      if (at >= 0 && /repeat 1\/\d+/.test(stderr.slice(at)) && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('close', (code) => resolve({ code, stdout, seconds: (performance.now() - started) / 1000 }));
  });
}

const first = await nightbench(['backfill', ...range, '--no-judge'], Number(flags['kill-at']));
const second = await nightbench(['backfill', ...range, '--json']);
const outcome = JSON.parse(second.stdout) as { recorded: { night: string }[]; skipped: string[]; failed: string[]; judged: string[]; episodesFound: number[] };

const historyFile = path.join(dir, '.nightbench/history.sqlite');
const replayFile = path.join(dir, 'replay.sqlite');
copyFileSync(historyFile, replayFile);
const replay = new Database(replayFile);
replay.exec('DELETE FROM regressions');
replay.close();
for (const night of outcome.judged) await nightbench(['detect', '--db', replayFile, '--night', night, '--quiet']);

const columns = 'kind, series_key, first_bad_night, last_good_night, first_bad_run_id, ratio, p_value, state, last_night';
const history = new Database(historyFile, { readonly: true });
const replayed = new Database(replayFile, { readonly: true });
const episodes = (db: Database.Database) => db.prepare(`SELECT ${columns} FROM regressions ORDER BY fingerprint`).all();
const perNight = history.prepare("SELECT night, sum(status IN ('complete', 'partial')) AS whole, sum(status = 'incomplete') AS cut, sum(status = 'failed') AS failed FROM runs WHERE kind = 'nightly' GROUP BY night ORDER BY night").all() as { night: string; whole: number; cut: number; failed: number }[];
const failedRepeats = history.prepare("SELECT count(*) AS n FROM repeats p JOIN runs r ON r.id = p.run_id WHERE r.kind = 'nightly' AND p.status IN ('failed', 'timeout')").get() as { n: number };
const absent = history.prepare("SELECT a.metric, a.reason, min(r.night) AS first, max(r.night) AS last, count(*) AS runs FROM absent_metrics a JOIN runs r ON r.id = a.run_id GROUP BY a.metric, a.reason").all();
process.stdout.write(
  `${JSON.stringify(
    {
      killedRun: { exit: first.code, seconds: Math.round(first.seconds) },
      resumedRun: { exit: second.code, seconds: Math.round(second.seconds), recorded: outcome.recorded.length, skipped: outcome.skipped.length, failed: outcome.failed },
      nights: perNight.length,
      nightsNotRecordedOnce: perNight.filter((n) => n.whole !== 1),
      cutShort: perNight.filter((n) => n.cut > 0).map((n) => n.night),
      failedRepeats: failedRepeats.n,
      absentMetrics: absent,
      episodes: { backfill: episodes(history).length, replay: episodes(replayed).length, equal: JSON.stringify(episodes(history)) === JSON.stringify(episodes(replayed)) },
    },
    null,
    2,
  )}\n`,
);
