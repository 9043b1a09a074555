/**
 * A month of operation, compressed: nights driven through the same CLI steps the workflows run
 * (shard plan, a shard, merge, detect, issues, history save to a git branch; triage jobs and
 * other writers saving beside them), with the cheap suite (no Dask, sub-second repeats), the
 * fake GitHub and a throw-away bare repository served over git's smart HTTP, and faults injected on chosen nights. A night
 * whose EC2 worker host is reclaimed runs its shard on moto, in this process (soak-ec2-shard.ts).
 * At the end it checks what must never be lost. Used by bench/soak.ts (30 nights) and a short e2e test.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sqlAll } from './sql.js';
import { runCli, type CliOptions, type CliResult } from './cli.js';
import { cheapa, cheapb, cheapTargetConfig, createCheapTarget } from './cheap-target.js';
import { FakeGitHub } from './fake-github.js';
import { startGitHttpServer } from './git-http-server.js';
import { createBareRepo, writeNight } from '../history-sync/helpers.js';
import { startMoto, type Moto } from '../cluster/ec2/moto.js';
import { motoCluster, runReclaimedShard } from './soak-ec2-shard.js';
import { tempDir } from './temp-dir.js';

export type Fault = 'shard-killed' | 'github-502' | 'github-403' | 'triage-race' | 'two-writers' | 'corrupt-shard' | 'host-reclaimed' | 'remote-502';
export const allFaults: readonly Fault[] = ['shard-killed', 'github-502', 'github-403', 'triage-race', 'two-writers', 'corrupt-shard', 'host-reclaimed', 'remote-502'];

export interface SoakOptions {
  nights: number;
  /** Night index (0-based) -> the faults injected that night. */
  faults: ReadonlyMap<number, readonly Fault[]>;
  /** Night indexes on which the target slows down 2x, and comes back. */
  slowFrom?: number;
  fastFrom?: number;
  repeats?: number;
  /** Progress lines (one per step). */
  log?: (line: string) => void;
}

export interface NightRecord {
  night: string;
  /** Faults that took effect (one that found nothing to act on is not counted). */
  injected: Fault[];
  /** Exit codes of the night's steps, where not 0. */
  exits: Record<string, number | null>;
  openIssues: number;
  saveAttempts: number;
  seconds: number;
}

export interface Invariant {
  name: string;
  /** What went wrong; empty when it holds. */
  violations: string[];
}

export interface SoakResult {
  nights: NightRecord[];
  invariants: Invariant[];
  faultsInjected: number;
  /** Repeats in artifacts made unreadable by an injected corruption (gone with the artifact, named apart). */
  corruptedRepeats: number;
  /** Failed repeats of the final history by cause (all the machine's: the target never breaks). */
  failuresByCause: Record<string, number>;
  /** Every step that did not exit 0, with the line that says why: a loss must come with its cause. */
  failedSteps: FailedStep[];
}

export interface FailedStep {
  night: string;
  step: string;
  code: number | null;
  /** The CLI's last `nightbench:` line; else the first line naming an error (a crash before the CLI ran); else "killed" or its last line. */
  line: string;
}

const repository = 'acme/perf';
const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const branch = 'nightbench-history';
const githubEnv = { GITHUB_TOKEN: 'soak-token' };
const dayMs = 86_400_000;

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const dir = tempDir('nb-soak-');
  const target = createCheapTarget();
  const github = await new FakeGitHub().start();
  github.addRepository(repository);
  github.setRole(repository, 'mia', 'maintain');
  const bare = createBareRepo(dir);
  // Over HTTP, as the workflows reach GitHub, so the remote can fail as GitHub's does.
  const remote = await startGitHttpServer(dir);
  const store = ['--remote', 'git', '--repo', `${remote.url}/${path.basename(bare)}`, '--branch', branch, '--retry-delay', '20', '--attempts', '20'];
  const config = JSON.stringify({
    ...cheapTargetConfig(target),
    repeats: options.repeats ?? 3,
    detection: { minBaselineNights: 2, alpha: 0.05, noiseMultiple: 2, thresholds: ['cpu_time', 'peak_memory', 'average_memory'].map((metric) => ({ metric, threshold: 10 })) },
    github: { repository, apiUrl: github.baseUrl, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 },
  });
  /** Every database a job produced and kept (its repeats must all reach the history). */
  const written: string[] = [];
  /** Comment ids of triage commands a maintainer gave (their verdicts must all be saved). */
  const verdicts: number[] = [];
  const records: NightRecord[] = [];
  const failedSteps: FailedStep[] = [];
  let corruptedRepeats = 0;
  const needsEc2 = [...options.faults.values()].some((faults) => faults.includes('host-reclaimed'));
  const moto: Moto | undefined = needsEc2 ? await startMoto() : undefined;
  /** The config of a night on EC2: the same target and detection, its workload failing while CHEAP_FAIL_WHILE exists. */
  const ec2Config = async (vanished: string): Promise<string> => {
    const local = JSON.parse(config) as { target: { setup: { env: Record<string, string> } } };
    return JSON.stringify({ ...local, target: { ...local.target, setup: { env: { ...local.target.setup.env, CHEAP_FAIL_WHILE: vanished } } }, cluster: await motoCluster(moto!) });
  };

  const job = (night: string, name: string): string => {
    const cwd = path.join(dir, night, name);
    mkdirSync(cwd, { recursive: true });
    writeFileSync(path.join(cwd, 'nightbench.config.json'), config);
    return cwd;
  };
  // `answers`: exit codes that are an answer, not a failure (detect's 1: it found regressions).
  const step = async (cwd: string, args: string[], exits: Record<string, number | null>, extra: { env?: Record<string, string>; onStderr?: CliOptions['onStderr']; answers?: readonly number[] } = {}): Promise<CliResult> => {
    const began = Date.now();
    const result = await runCli(args, { cwd, env: { NIGHTBENCH_NOISE_CV: '0.05', ...extra.env }, onStderr: extra.onStderr });
    const name = args.slice(0, args[0] === 'history' || args[0] === 'db' || args[0] === 'shard' ? 2 : 1).join(' ');
    log(`  ${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s  ${name} -> ${result.code}  (${path.relative(dir, cwd)})`);
    if (result.code !== 0 && !(extra.answers ?? []).includes(result.code!)) {
      exits[name] = result.code;
      // The CLI's one-line error says why, fault or not.
      const lines = result.stderr.split('\n').filter(Boolean);
      const line = lines.filter((l) => l.startsWith('nightbench:')).at(-1) ?? lines.find((l) => /^(\w*Error\b|Error \[)/.test(l)) ?? (result.code === null ? 'killed' : lines.at(-1) ?? '(no output)');
      failedSteps.push({ night: path.relative(dir, cwd).split(path.sep)[0]!, step: name, code: result.code, line });
      log(`           ${line}`);
    }
    return result;
  };

  try {
    // The nights end today: the CLI refuses a night after tomorrow, so a long soak cannot start on a fixed date.
    const firstNight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - (options.nights - 1) * dayMs;
    const before = (days: number, time: string) => `${new Date(firstNight - days * dayMs).toISOString().slice(0, 10)}T${time}Z`;
    target.a.commit({ 'cheapa.py': cheapa(0.1) }, 'Add cheapa', ada, before(2, '10:00:00'));
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, before(2, '09:00:00'));
    for (let index = 0; index < options.nights; index++) {
      const began = Date.now();
      const night = new Date(firstNight + index * dayMs).toISOString().slice(0, 10);
      const faults = new Set(options.faults.get(index) ?? []);
      const injected: Fault[] = [];
      const exits: Record<string, number | null> = {};
      log(`night ${index + 1} ${night}${faults.size ? ` faults: ${[...faults].join(', ')}` : ''}`);
      if (index === options.slowFrom) target.a.commit({ 'cheapa.py': cheapa(0.2) }, 'Be thorough (#11)', ada, `${night}T00:30:00Z`);
      if (index === options.fastFrom) target.a.commit({ 'cheapa.py': cheapa(0.1) }, 'Be quick again (#12)', ada, `${night}T00:30:00Z`);
      github.now = new Date(`${night}T06:00:00Z`);

      // The shard job (one shard: the cheap suite has one workload); killed mid-workload when asked.
      const shardJob = job(night, 'shard');
      const shardFile = path.join(shardJob, 'shard.sqlite');
      const killed = faults.has('shard-killed');
      if (faults.has('host-reclaimed')) {
        const configFile = path.join(shardJob, 'nightbench.ec2.json');
        writeFileSync(configFile, await ec2Config(path.join(shardJob, 'worker-host-gone')));
        const began = Date.now();
        const shard = await runReclaimedShard(moto!, configFile, shardFile, night, path.join(shardJob, 'worker-host-gone'));
        const status = shard.reports.map((r) => r.status).join(', ');
        log(`  ${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s  nightly on ec2 (moto), host ${shard.reclaimed} reclaimed -> ${status}  (${path.relative(dir, shardJob)})`);
        if (shard.reclaimed) injected.push('host-reclaimed');
      } else {
        await step(shardJob, ['nightly', '--no-detect', '--db', 'shard.sqlite', '--night', night], exits, {
          onStderr: killed ? (child, stderr) => void (/repeat 2\/\d/.test(stderr) && child.kill('SIGKILL')) : undefined,
        });
      }
      if (killed && exits['nightly'] !== undefined) injected.push('shard-killed');
      const shards = [shardFile];
      if (existsSync(shardFile)) written.push(shardFile);
      if (faults.has('corrupt-shard')) {
        // A second shard's artifact arrives corrupt: its repeats are gone with it; the others must not be.
        const corrupt = path.join(job(night, 'shard-corrupt'), 'shard.sqlite');
        copyFileSync(shardFile, corrupt);
        corruptedRepeats += repeatsIn(corrupt).length;
        writeFileSync(corrupt, 'not a database '.repeat(256));
        shards.push(corrupt);
        injected.push('corrupt-shard');
      }

      // The history job: fetch, merge, detect, issues, save, with other writers beside it.
      const historyJob = job(night, 'history');
      const remoteFailedBefore = remote.failed;
      // The history's remote has a bad minute: the fetch meets two 502s, the save's push lands but its answer is lost.
      if (faults.has('remote-502')) remote.failNext(2);
      await step(historyJob, ['history', 'fetch', ...store.slice(0, 6), '--to', 'history.sqlite'], exits);
      await step(historyJob, ['db', 'merge', '--db', 'history.sqlite', ...shards.filter(existsSync)], exits);
      await step(historyJob, ['detect', '--db', 'history.sqlite', '--night', night], exits, { answers: [1] });
      const issueTargets = github.issues(repository).filter((i) => i.state === 'open');
      const githubFaults = (['github-502', 'github-403'] as const).filter((fault) => faults.has(fault));
      const githubFailures = (faults.has('github-502') ? 4 : 0) + (faults.has('github-403') ? 2 : 0);
      if (faults.has('github-502')) github.failOn('POST', /^\/repos\/[^/]+\/[^/]+\/issues(\/\d+\/comments)?$/, 4);
      if (faults.has('github-403')) {
        github.failOn('POST', /^\/repos\/[^/]+\/[^/]+\/issues(\/\d+\/comments)?$/, 1, 'secondary-rate-limit');
        github.failOn('PATCH', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+$/, 1, 'secondary-rate-limit');
      }
      await step(historyJob, ['issues', '--db', 'history.sqlite', '--night', night], exits, { env: githubEnv });
      // GitHub fails for this night's issue step only: failures no request met (a night with nothing
      // to write) must not wait for a later night's writes, and such a fault did not take effect.
      if (github.clearTargetedFailures() < githubFailures) injected.push(...githubFaults);
      if (faults.has('remote-502')) remote.failNext(1, { match: /^POST .*git-receive-pack$/, answerLost: true });
      const writers: Promise<unknown>[] = [step(historyJob, ['history', 'save', ...store, '--from', 'history.sqlite', '--json'], exits)];
      if (faults.has('two-writers')) {
        // Another writer (a bisect's save) saves at the same moment.
        const other = job(night, 'other-writer');
        writeNight(path.join(other, 'bisect.sqlite'), night, 0.5);
        written.push(path.join(other, 'bisect.sqlite'));
        writers.push(step(other, ['history', 'save', ...store, '--from', 'bisect.sqlite'], exits));
        injected.push('two-writers');
      }
      const open = issueTargets[0] ?? github.issues(repository).find((i) => i.state === 'open');
      if (faults.has('triage-race') && open) {
        // A maintainer's command on an open issue, its triage job racing the nightly's save.
        const comment = github.addComment(repository, open.number, 'mia', '/nightbench bisect');
        verdicts.push(comment.id);
        const triageJob = job(night, 'triage');
        writers.push(
          (async () => {
            await step(triageJob, ['history', 'fetch', ...store.slice(0, 6), '--to', 'history.sqlite'], exits);
            await step(triageJob, ['triage', '--db', 'history.sqlite', '--repository', repository, '--issue', String(open.number), '--comment-id', String(comment.id)], exits, { env: githubEnv });
            written.push(path.join(triageJob, 'history.sqlite'));
            await step(triageJob, ['history', 'save', ...store, '--from', 'history.sqlite'], exits);
          })(),
        );
        injected.push('triage-race');
      }
      const [save] = (await Promise.all(writers)) as CliResult[];
      if (faults.has('remote-502') && remote.failed - remoteFailedBefore === 3) injected.push('remote-502');
      records.push({
        night,
        injected,
        exits,
        openIssues: github.issues(repository).filter((i) => i.state === 'open').length,
        saveAttempts: save?.code === 0 ? (JSON.parse(save.stdout) as { attempts: number }).attempts : 0,
        seconds: (Date.now() - began) / 1000,
      });
    }

    // GitHub failing on the last night leaves that night's issue writes to the job's re-run (or the
    // next night): the state of the issues is checked once GitHub answers again, as it would be.
    const last = records.at(-1);
    if (last?.exits['issues'] !== undefined) {
      const rerun = job(last.night, 'history-rerun');
      log(`re-run of ${last.night}'s issue step, GitHub answering again`);
      await step(rerun, ['history', 'fetch', ...store.slice(0, 6), '--to', 'history.sqlite'], {});
      await step(rerun, ['issues', '--db', 'history.sqlite', '--night', last.night], {}, { env: githubEnv });
      await step(rerun, ['history', 'save', ...store, '--from', 'history.sqlite'], {});
    }

    // The history as the next job would fetch it.
    const final = path.join(job('final', 'check'), 'history.sqlite');
    await runCli(['history', 'fetch', ...store.slice(0, 6), '--to', final], { cwd: path.dirname(final) });
    const causes = sqlAll(final, "SELECT COALESCE(failure_cause, 'no cause') AS cause, COUNT(*) AS n FROM repeats WHERE status IN ('failed', 'timeout') GROUP BY 1 ORDER BY 1") as { cause: string; n: number }[];
    return {
      nights: records, invariants: checkInvariants(final, written, verdicts, github), faultsInjected: records.reduce((n, r) => n + r.injected.length, 0), corruptedRepeats,
      failuresByCause: Object.fromEntries(causes.map((c) => [c.cause, c.n])),
      failedSteps,
    };
  } finally {
    await moto?.stop();
    await github.stop();
    await remote.close();
  }
}

/** (run, workload, repeat) of every measured repeat a database holds. */
function repeatsIn(file: string): string[] {
  try {
    return (sqlAll(file, 'SELECT run_id, workload, repeat FROM repeats') as { run_id: string; workload: string; repeat: number }[]).map((r) => `${r.run_id} ${r.workload} #${r.repeat}`);
  } catch {
    return [];
  }
}

function checkInvariants(final: string, written: readonly string[], verdicts: readonly number[], github: FakeGitHub): Invariant[] {
  const stored = new Set(repeatsIn(final));
  const lost = [...new Set(written.flatMap(repeatsIn))].filter((repeat) => !stored.has(repeat));
  const events = new Set((sqlAll(final, 'SELECT key FROM triage_events') as { key: string }[]).map((e) => e.key));
  const unsaved = verdicts.filter((id) => !events.has(`comment:${id}`)).map((id) => `comment ${id}`);
  const issues = github.issues(repository);
  const fingerprint = (body: string) => /<!-- nightbench:fingerprint=([0-9a-f]+) -->/.exec(body)?.[1] ?? '';
  const openByFingerprint = new Map<string, number[]>();
  for (const issue of issues.filter((i) => i.state === 'open')) openByFingerprint.set(fingerprint(issue.body), [...(openByFingerprint.get(fingerprint(issue.body)) ?? []), issue.number]);
  const duplicates = [...openByFingerprint.entries()].filter(([, numbers]) => numbers.length > 1).map(([f, numbers]) => `${f}: #${numbers.join(', #')}`);
  const episodes = sqlAll(final, 'SELECT fingerprint, state, issue_number AS issue FROM regressions WHERE issue_number IS NOT NULL') as { fingerprint: string; state: string; issue: number }[];
  const twins = new Set(issues.filter((i) => i.comments.some((c) => c.body.startsWith('Duplicate of #'))).map((i) => i.number));
  const filed = issues.filter((i) => !twins.has(i.number) && i.labels.includes('regression'));
  const unexplained = filed.filter((i) => !episodes.some((e) => e.issue === i.number)).map((i) => `#${i.number} has no episode in the history`);
  const active = new Set(['open', 'still-regressed']);
  const wrongState = filed.flatMap((issue) => {
    const mine = episodes.filter((e) => e.issue === issue.number);
    if (mine.length === 0) return [];
    const shouldBeOpen = mine.some((e) => active.has(e.state));
    return shouldBeOpen === (issue.state === 'open') ? [] : [`#${issue.number} is ${issue.state} but its episodes are ${mine.map((e) => e.state).join(', ')}`];
  });
  // The target never breaks: every failed repeat is a fault's, and must say it was the machine's.
  const blamedOnCode = (sqlAll(final, "SELECT run_id AS run, workload, repeat, failure_class AS class, failure_cause AS cause FROM repeats WHERE status IN ('failed', 'timeout')") as { run: string; workload: string; repeat: number; class: string | null; cause: string | null }[])
    .filter((r) => r.class !== 'infrastructure')
    .map((r) => `${r.run} ${r.workload} #${r.repeat}: ${r.class ?? 'no class'} (${r.cause ?? 'no cause'})`);
  const broken = issues.filter((i) => i.labels.includes('broken')).map((i) => `#${i.number} ${i.title}`);
  return [
    { name: 'every repeat recorded anywhere is in the final history', violations: lost },
    { name: "every failed repeat recorded as the machine's, with its cause", violations: blamedOnCode },
    { name: 'no broken issue (the target never breaks)', violations: broken },
    { name: 'every verdict persisted', violations: unsaved },
    { name: 'no duplicate open issue', violations: duplicates },
    { name: 'no issue opened by a fault alone', violations: unexplained },
    { name: 'every regression issue in the state its series says', violations: wrongState },
  ];
}

/** The result as the tables bench/soak.ts prints. */
export function renderSoak(result: SoakResult): string {
  const lines = ['| night | faults | exits (not 0) | open issues | save tries | s |', '|---|---|---|---|---|---|'];
  for (const n of result.nights) {
    const exits = Object.entries(n.exits).map(([step, code]) => `${step}=${code}`).join(' ');
    lines.push(`| ${n.night} | ${n.injected.join(', ') || '-'} | ${exits || '-'} | ${n.openIssues} | ${n.saveAttempts} | ${n.seconds.toFixed(0)} |`);
  }
  lines.push('', '| invariant | holds | violations |', '|---|---|---|');
  for (const i of result.invariants) lines.push(`| ${i.name} | ${i.violations.length === 0 ? 'yes' : 'NO'} | ${i.violations.slice(0, 5).join('; ') || '-'} |`);
  const losses = result.invariants.reduce((n, i) => n + i.violations.length, 0);
  lines.push('', `${result.nights.length} nights, ${result.faultsInjected} faults injected, ${losses} losses (repeats in corrupted artifacts, gone with them: ${result.corruptedRepeats})`);
  const causes = Object.entries(result.failuresByCause).map(([cause, n]) => `${n} ${cause}`);
  lines.push(`failed repeats in the history: ${causes.join('; ') || 'none'}`);
  lines.push('', '| step | exit | why (digits as N) | nights | first |', '|---|---|---|---|---|');
  // One row per kind of failure: a year of GitHub outages is one row, a crash stands out as its own.
  const kinds = new Map<string, { nights: number; first: string }>();
  for (const failed of result.failedSteps) {
    const key = `${failed.step} | ${failed.code} | ${failed.line.replace(/\d+/g, 'N').replaceAll('|', '\\|')}`;
    const kind = kinds.get(key) ?? kinds.set(key, { nights: 0, first: failed.night }).get(key)!;
    kind.nights++;
  }
  for (const [key, { nights, first }] of kinds) lines.push(`| ${key} | ${nights} | ${first} |`);
  return `${lines.join('\n')}\n`;
}
