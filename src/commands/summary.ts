import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { collectNightSummary } from '../job-summary/summary-data.js';
import { writeJobSummary } from '../job-summary/job-summary.js';
import { nightAnnotations, nightOutputs, renderNightSummary } from '../job-summary/night-summary.js';
import { NightbenchError } from '../errors.js';
import { addCommonOptions, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory } from './context.js';
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
      .option('--expect-shards <n>', 'the night was split into N shards: name those that recorded nothing', parseIntegerOption('--expect-shards'))
      .option('--report-url <url>', 'link to the published history pages')
      .option('--no-detect', 'list runs and failures only (a shard\'s database has no baseline)')
      .option('--json', 'print the Markdown, annotations and outputs as JSON')
      .action(async (flags: SummaryFlags) => {
        const context = commandContext(flags);
        if (!existsSync(context.historyPath)) throw new NightbenchError('store', `summary: ${context.historyPath} does not exist`);
        const store = openContextHistory(context);
        try {
          const input = collectNightSummary(store, { night: flags.night, detection: context.loaded.config.detection, detect: flags.detect, expectedShards: flags.expectShards, reportUrl: flags.reportUrl });
          const summary = { markdown: renderNightSummary(input), annotations: nightAnnotations(input), outputs: nightOutputs(input) };
          if (await writeJobSummary(summary)) context.log.info('wrote the job summary');
          process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : summary.markdown);
        } finally {
          store.close();
        }
        setExitCode(0);
      });
  },
};
