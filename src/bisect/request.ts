/**
 * What `nightbench bisect` is asked to do, resolved: the series and range from a regression
 * episode, from an issue (its largest regression, or the broken workload it reports), or from
 * --good/--bad/--workload with the other repositories' commits paired by date. Free of the CLI: it parses no flag and prints nothing.
 *
 * @module
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { NightbenchError } from '../errors.js';
import type { HistoryStore } from '../history/store.js';
import { brokenOfIssue } from '../issues/publish-broken.js';
import type { Log } from '../log.js';
import { prepareTarget } from '../target/target.js';
import { episodeRequest, largestChange } from './confirm.js';
import type { BisectRequest } from './run.js';

/** What the bisect command was given. */
export interface BisectFlags {
  episode?: number;
  issue?: number;
  good?: string[];
  bad?: string[];
  workload?: string;
  metric?: string;
  suite?: string;
  mode: BisectRequest['mode'];
  failing?: boolean;
  seed?: number;
}

/** The config, log and history a request is resolved against. */
export interface RequestContext {
  loaded: LoadedConfig;
  log: Log;
  store: HistoryStore;
}

/** The series and range to bisect, from an episode, an issue (a regression's or a broken workload's), or the flags. */
export async function resolveBisectRequest(context: RequestContext, flags: BisectFlags): Promise<{ request: BisectRequest; unit: string | null }> {
  const { store } = context;
  const { mode } = flags;
  if (flags.episode !== undefined || flags.issue !== undefined) {
    const episodes = store.episodes.episodes().filter((e) => (flags.episode !== undefined ? e.id === flags.episode : e.issueNumber === flags.issue));
    if (episodes.length > 0) {
      const episode = largestChange(episodes);
      return { request: episodeRequest(episode, mode, { issueNumber: flags.issue, seed: flags.seed }), unit: episode.unit };
    }
    if (flags.episode !== undefined) throw new NightbenchError('usage', `no regression episode ${flags.episode} in the history`);
    const broken = await brokenOfIssue({ store, loaded: context.loaded, env: process.env, log: context.log }, flags.issue!);
    if (!broken) throw new NightbenchError('usage', `no regression episode or broken workload is reported in issue #${flags.issue}`);
    if (!broken.lastPassing) throw new NightbenchError('usage', `issue #${flags.issue} reports ${broken.workload} failing from its first night: there is no passing night to bisect from`);
    // Pass/fail, as --failing, over the failure's last passing and first failing nights.
    return { request: { ...failingRequest(mode, flags, broken.workload), suite: broken.suite, good: broken.lastPassing.commits, bad: broken.firstFailing.commits, issueNumber: flags.issue }, unit: null };
  }
  if (!flags.good?.length || !flags.bad?.length || !flags.workload) throw new NightbenchError('usage', 'bisect needs --episode, --issue, or --good, --bad and --workload');
  const range = { suite: flags.suite, good: await completeCommits(context, flags.good), bad: await completeCommits(context, flags.bad) };
  if (flags.failing) return { request: { ...failingRequest(mode, flags, flags.workload), ...range }, unit: null };
  const metric = flags.metric ?? 'wall_time';
  return { request: { mode, judged: 'metric', workload: flags.workload, metric, priorNoise: 0, seed: flags.seed, ...range }, unit: metric === 'wall_time' ? 's' : null };
}

/** A pass/fail bisect of `workload` (its metric only names the runs: a failure has no value). */
function failingRequest(mode: BisectRequest['mode'], flags: BisectFlags, workload: string): Omit<BisectRequest, 'good' | 'bad'> {
  return { mode, judged: 'pass-fail', workload, metric: flags.metric ?? 'wall_time', priorNoise: 0, seed: flags.seed };
}

/** `SHA` (the primary repository, the others paired by date as --commit does) plus `REPO=SHA` overrides. */
async function completeCommits(context: RequestContext, given: string[]): Promise<Record<string, string>> {
  const explicit = Object.fromEntries(given.filter((g) => g.includes('=')).map((g) => g.split('=', 2) as [string, string]));
  const primary = given.find((g) => !g.includes('='));
  const { config } = context.loaded;
  // A git target never runs the interpreter here; only an installed one does (and it cannot bisect).
  const python = config.python ?? '/usr/bin/python3';
  const target = await prepareTarget(config, { workdir: path.resolve(context.loaded.baseDir, config.workdir), baseDir: context.loaded.baseDir, python, commit: primary, commits: explicit, log: { ...context.log, info: context.log.debug } });
  return Object.fromEntries(target.commits.map((c) => [c.repo, c.sha]));
}
