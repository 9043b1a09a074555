import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { NightbenchError } from '../errors.js';
import { pruneHistory } from '../history-sync/prune.js';
import { backendNames, backendSummaries } from '../history-sync/registry.js';
import type { RemoteChoice } from '../history-sync/transfer.js';
import { exportFormats, type ExportFormat } from '../interchange/export.js';
import { exportFromHistory, importIntoHistory, type HistoryFile } from '../interchange/history-file.js';
import { formatNames, formatReaders } from '../interchange/read-source.js';
import type { InterchangeFormat } from '../interchange/types.js';
import { fetchHistory, saveHistory } from '../nightly/pipeline.js';
import { addCommonOptions, parseIntegerOption, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, type CommandContext } from './context.js';
import { checkNight, nightOption } from './input.js';

type RemoteOptions = CommonOptions & RemoteChoice;

function addRemoteOptions(command: Command): Command {
  return addCommonOptions(command)
    .option('--remote <name>', `where the history is kept between runs (${backendSummaries()}; default git)`)
    .option('--store <name>', 'old name of --remote, still accepted')
    .option('--repo <url>', 'git: the repository (URL or path) holding the history branch')
    .option('--branch <name>', 'git: the history branch (default nightbench-history)')
    .option('--path <file>', 'git: the file inside the branch (default history.sqlite); file: the stored file')
    .option('--bucket <name>', 's3: the bucket')
    .option('--key <key>', 's3: the object (default nightbench/history.sqlite)')
    .option('--region <region>', 's3: the bucket\'s region (default: $AWS_REGION)')
    .option('--endpoint <url>', 's3: an S3-compatible endpoint')
    // The file remote merges under SQLite's own lock and takes no retries: its schema refuses these.
    .option('--attempts <n>', 'git, s3: tries before giving up when the stored history keeps moving or its remote keeps failing (a 5xx, a dropped connection) (default 6)', parseIntegerOption('--attempts'))
    .option('--retry-delay <ms>', 'git, s3: first wait between tries, doubled each time, with jitter (default 2000)', parseIntegerOption('--retry-delay'))
    .option('--json', 'machine-readable output');
}

function localFile(context: CommandContext, given: string | undefined): string {
  return given ? context.resolve(given) : context.historyPath;
}

function historyFileOf(context: CommandContext): HistoryFile {
  return { path: context.historyPath, busyTimeoutMs: context.loaded.config.history.busyTimeoutMs };
}

/** `nightbench history fetch|save|prune|import|export`: the history kept between workflow runs, and brought from or to other tools. */
export const historyCommand: CliCommand = {
  register(program: Command, setExitCode) {
    const history = program.command('history').description(`the history between runs: fetch it from its remote, save a night back, prune old samples (remotes: ${backendNames().join(', ')}); import another tool's history, export it`);

    addRemoteOptions(history.command('fetch').description('copy the stored history to a local file (a first night finds none and says so); retries while its remote fails in a way that passes'))
      .option('--to <file>', 'where to write it (default: --db or the config\'s history path)')
      .action(async (options: RemoteOptions & { to?: string }) => {
        const context = commandContext(options);
        const fetched = await fetchHistory(options, localFile(context, options.to), context.log);
        printResult(options.json, fetched.data, fetched.text);
        setExitCode(0);
      });

    addRemoteOptions(history.command('save').description('merge a local history into the stored one and store it; retries when another writer moved it meanwhile or its remote failed in a way that passes'))
      .option('--from <file>', 'the local history to save (default: --db or the config\'s history path)')
      .option('--squash', 'git: keep one commit on the branch (force-pushed with a lease) instead of one per save')
      .option('--allow-network-filesystem', 'file: save even on a network filesystem, where SQLite\'s locking does not hold (only if a single writer ever saves)')
      .action(async (options: RemoteOptions & { from?: string }) => {
        const context = commandContext(options);
        const saved = await saveHistory(options, localFile(context, options.from), context.log);
        printResult(options.json, saved.data, saved.text);
        setExitCode(0);
      });

    addCommonOptions(history.command('import').argument('<source>', 'the file or folder to read').description('bring another tool\'s benchmark history into the history: commits, nights, values, units, directions; importing the same data again adds nothing'))
      .addHelpText('after', `\nFormats (detected, or --format):\n${formatNames.map((name) => `  ${name}: ${formatReaders[name].summary}`).join('\n')}`)
      .option('--format <name>', `the source's format (${formatNames.join(', ')}; default: detected)`)
      .option('--suite <name>', 'the suite of formats that name none (default: the format\'s name)')
      .option('--repo <name>', 'the repository the commits are recorded under (default: the suite)')
      .option('--machine <name>', 'the machine of formats that record none (github-action-benchmark, BMF)', 'default')
      .option('--commit <sha>', 'BMF: the commit its values measured')
      .option('--date <iso>', 'BMF: when that commit was made (default: now); its UTC date is the night')
      .option('--json', 'machine-readable output')
      .action((source: string, options: CommonOptions & { format?: string; suite?: string; repo?: string; machine: string; commit?: string; date?: string }) => {
        if (options.format !== undefined && !(formatNames as string[]).includes(options.format)) {
          throw new NightbenchError('usage', `--format: expected one of ${formatNames.join(', ')}, got "${options.format}"`);
        }
        const date = options.date === undefined ? new Date() : new Date(options.date);
        if (Number.isNaN(date.getTime())) throw new NightbenchError('usage', `--date: expected an ISO 8601 date, got "${options.date}"`);
        const context = commandContext(options);
        const imported = importIntoHistory(historyFileOf(context), context.resolve(source), {
          format: options.format as InterchangeFormat | undefined, suite: options.suite, repo: options.repo, machine: options.machine,
          commit: options.commit === undefined ? undefined : { sha: options.commit, date: date.toISOString() },
          log: context.log,
        });
        printResult(options.json, imported.data, imported.text);
        setExitCode(0);
      });

    addCommonOptions(history.command('export').description('write the nightly history out for other tools: csv (every value) or bmf (Bencher Metric Format, one night)'))
      .requiredOption('--format <name>', `${exportFormats.join(' or ')}`)
      .option('--suite <name>', 'only this suite')
      .option('--night <date>', 'bmf: the night written (default: the latest); csv: the first night written (default: all)', nightOption)
      .option('--out <file>', 'write to this file instead of stdout')
      .option('--json', 'with --out: a machine-readable summary on stdout')
      .action((options: CommonOptions & { format: string; suite?: string; night?: string; out?: string }) => {
        if (!(exportFormats as readonly string[]).includes(options.format)) throw new NightbenchError('usage', `--format: expected one of ${exportFormats.join(', ')}, got "${options.format}"`);
        const context = commandContext(options);
        const result = exportFromHistory(historyFileOf(context), { format: options.format as ExportFormat, suite: options.suite, night: options.night });
        const summary = `${result.values} values${result.night ? ` of night ${result.night}` : ''} as ${options.format}`;
        if (options.out === undefined) {
          process.stdout.write(result.text);
          context.log.info(`exported ${summary}`);
        } else {
          const out = context.resolve(options.out);
          writeFileSync(out, result.text);
          printResult(options.json, { format: options.format, file: out, night: result.night, values: result.values }, `exported ${summary} to ${out}`);
        }
        setExitCode(0);
      });

    addCommonOptions(history.command('prune').description('delete the per-process samples of nights before a date (results stay), then compact the file'))
      // A typo such as 2062 for 2026 would delete the samples of every night: checked as a night is.
      .requiredOption('--before <date>', 'YYYY-MM-DD, at most tomorrow: samples of earlier nights are deleted', (value: string) => checkNight(value, '--before'))
      .option('--archive <file>', 'first write a full copy of the history to this file, for cold storage')
      .option('--dry-run', 'count what would be deleted, change nothing')
      .option('--json', 'machine-readable output')
      .action((options: CommonOptions & { before: string; archive?: string; dryRun?: boolean }) => {
        const context = commandContext(options);
        const pruned = pruneHistory(context.historyPath, { before: options.before, archive: options.archive, archiveFile: options.archive && context.resolve(options.archive), dryRun: options.dryRun });
        printResult(options.json, pruned.data, pruned.text);
        setExitCode(0);
      });
  },
};
