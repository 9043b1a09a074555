import type { CliCommand } from './command.js';

/**
 * A CLI verb as `--help` lists it: its name, a one-line summary, and its module, imported only
 * when the verb runs, so a start pays for the one command it runs and not for every command's
 * dependencies (Octokit, the AWS SDK, SQLite).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<CliCommand>;
}

/** Every CLI verb, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: CommandEntry[] = [
  { name: 'init', summary: 'make a git repository ready for nightbench: config, starter suite, workflows', load: async () => (await import('./init.js')).initCommand },
  { name: 'nightly', summary: 'run the nightly: every suite on the cluster, into the history, then detection and issues', load: async () => (await import('./nightly.js')).nightlyCommand },
  { name: 'backfill', summary: 'record past nights as nightly runs, each repository at that night\'s cut-off', load: async () => (await import('./backfill.js')).backfillCommand },
  { name: 'run', summary: 'run the configured suites once and record them outside the nightly series', load: async () => (await import('./run.js')).runCommand },
  { name: 'detect', summary: 'judge a night of every series against its history and update the episodes', load: async () => (await import('./detect.js')).detectCommand },
  { name: 'replay', summary: 'judge a stored history night by night as the nightlies would have; issues as files, never GitHub', load: async () => (await import('./replay.js')).replayCommand },
  { name: 'issues', summary: 'open, update and close regression issues for a night (GitHub or Markdown files)', load: async () => (await import('./issues.js')).issuesCommand },
  { name: 'triage', summary: 'carry out a "/nightbench <command>" comment on a regression issue', load: async () => (await import('./triage.js')).triageCommand },
  { name: 'bisect', summary: 'find the commit of a regression or failure and comment it on its issue', load: async () => (await import('./bisect.js')).bisectCommand },
  { name: 'ab', summary: 'A/B tests: environments against a baseline, with an A/A null hypothesis', load: async () => (await import('./ab.js')).abCommand },
  { name: 'db', summary: 'the SQLite history: schema migrations, status, merging shard databases', load: async () => (await import('./db.js')).dbCommand },
  { name: 'history', summary: 'the history between runs: fetch, save, prune; import (asv, github-action-benchmark, BMF), export', load: async () => (await import('./history.js')).historyCommand },
  { name: 'shard', summary: 'split a night over several machines', load: async () => (await import('./shard.js')).shardCommand },
  { name: 'summary', summary: 'summarise a night (runs, changes, failures, cost); in GitHub Actions the job summary', load: async () => (await import('./summary.js')).summaryCommand },
  { name: 'tune', summary: 'the repeats a night each workload needs to catch a change, and their cost', load: async () => (await import('./tune.js')).tuneCommand },
  { name: 'report', summary: 'build the static history site: index, charts, runs and A/B pages', load: async () => (await import('./report.js')).reportCommand },
  { name: 'reap', summary: 'terminate the EC2 instances whose nightbench:expires-at tag has passed', load: async () => (await import('./reap.js')).reapCommand },
];
