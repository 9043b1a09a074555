import type { Command } from 'commander';
import { summarizeNight } from '../nightly/pipeline.js';
import { addCommonOptions, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';
import { nightOption } from './input.js';

interface SummaryFlags extends CommonOptions {
  night?: string;
  expectShards?: number;
  reportUrl?: string;
  detect: boolean;
}

/**
 * `nightbench summary`: a night of the history as Markdown (runs, changes, failures, cost). In a
 * GitHub Actions job it also becomes the job summary, with annotations and step outputs.
 */
export const summaryCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(program.command('summary').description('summarise a night of the history (runs, changes, failures, cost); in GitHub Actions also the job summary, annotations and outputs'))
      .option('--night <YYYY-MM-DD>', 'the night (default: the latest nightly night in the history)', nightOption)
      .option('--expect-shards <n>', 'the night was split into N shards: name those that recorded nothing', parseIntegerOption('--expect-shards', 1))
      .option('--report-url <url>', 'link to the published history pages')
      .option('--no-detect', 'list runs and failures only (a shard\'s database has no baseline)')
      .option('--json', 'print the Markdown, annotations and outputs as JSON')
      .action(async (flags: SummaryFlags) => {
        const summary = await summarizeNight(commandContext(flags), { night: flags.night, expectedShards: flags.expectShards, reportUrl: flags.reportUrl, detect: flags.detect });
        process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : summary.markdown);
        setExitCode(0);
      });
  },
};
