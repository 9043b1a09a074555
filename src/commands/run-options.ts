import { Option, type Command } from 'commander';
import type { ConfigOverrides } from '../config/load.js';
import type { RunReport } from '../runner/execute.js';
import { nightOption } from './input.js';
import { addCommonOptions, collect, parseIntegerOption, parseNumberOption, type CommonOptions } from './command.js';
import { formatUsd } from '../format/index.js';

/** The flags `nightly`, `run` and `ab` share: they override the config, key for key. */
export interface RunFlags extends CommonOptions {
  provider?: string;
  workers?: number;
  threads?: number;
  memory?: string;
  repeats?: number;
  warmupRepeats?: number;
  scale?: number;
  timeLimit?: number;
  workload?: string[];
  suite?: string[];
  night?: string;
}

/**
 * The run flags on `command`. `night: false` leaves `--night` out of the help (backfill records a
 * range of nights): the option is still parsed, for the command to refuse it by name.
 */
export function addRunOptions(command: Command, options: { night?: boolean } = {}): Command {
  return addCommonOptions(command)
    .option('--provider <name>', 'cluster provider (local, netns, ec2)')
    .option('--workers <n>', 'number of workers', parseIntegerOption('--workers'))
    .option('--threads <n>', 'threads per worker', parseIntegerOption('--threads'))
    .option('--memory <size>', 'memory limit per worker, e.g. 2GiB')
    .option('--repeats <n>', 'repeats per workload', parseIntegerOption('--repeats'))
    .option('--warmup-repeats <n>', 'unmeasured repeats on each fresh cluster before the measured ones', parseIntegerOption('--warmup-repeats'))
    .option('--scale <x>', 'multiplier on every workload\'s data size', parseNumberOption('--scale'))
    .option('--time-limit <seconds>', 'time limit of one repeat', parseNumberOption('--time-limit'))
    .option('--workload <name>', 'run only this workload (repeatable, or comma-separated)', collect)
    .option('--suite <name>', 'run only this suite (repeatable)', collect)
    .addOption(
      new Option('--night <YYYY-MM-DD>', 'the night the results count for, at most tomorrow (default: today, UTC); a git target is then taken at that night\'s cut-off')
        .argParser(nightOption)
        .hideHelp(options.night === false),
    )
    .option('--json', 'print the run report as JSON on stdout');
}

export function runOverrides(flags: RunFlags): ConfigOverrides {
  return {
    'cluster.provider': flags.provider,
    'cluster.workers': flags.workers,
    'cluster.threadsPerWorker': flags.threads,
    'cluster.memoryPerWorker': flags.memory,
    repeats: flags.repeats,
    warmupRepeats: flags.warmupRepeats,
    scale: flags.scale,
    timeLimitSeconds: flags.timeLimit,
    workloads: flags.workload,
    suites: flags.suite,
  };
}

/**
 * Ctrl-C and SIGTERM abort the run: the current workload is killed, every cluster process stopped,
 * and the run is recorded as incomplete with all it measured so far.
 */
export function abortOnSignals(): { signal: AbortSignal; received: () => NodeJS.Signals | undefined; dispose: () => void } {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals) => {
    received = signal;
    process.stderr.write(`\nnightbench: ${signal}: stopping the cluster and recording what was measured\n`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** 0 when every run recorded results (even with some failed repeats), 1 when a run failed, 130 when interrupted. */
export function exitCodeOf(reports: RunReport[], interrupted: boolean): number {
  if (interrupted) return 130;
  return reports.some((r) => r.status === 'failed') ? 1 : 0;
}

export function printReports(reports: RunReport[], json: boolean | undefined, extra: Record<string, unknown> = {}): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ runs: reports, ...extra }, null, 2)}\n`);
    return;
  }
  for (const r of reports) {
    const counts = Object.entries(r.repeats).filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`).join(', ');
    const cost = r.costUsd !== undefined ? `, cost ${formatUsd(r.costUsd)}` : '';
    process.stdout.write(`${r.suite} ${r.night} on ${r.clusterShape}: ${r.status} (${counts || 'no repeats'}${cost}) run ${r.runId}\n`);
  }
}
