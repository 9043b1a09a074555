import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { configLinks } from '../issues/links.js';
import { episodeIssueFingerprint } from '../issues/group.js';
import { buildSite } from '../report/build.js';
import { addCommonOptions, collect, parseIntegerOption, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openRecordedHistory } from './context.js';
import { formatMiB } from '../format/index.js';

interface ReportFlags extends CommonOptions {
  out?: string;
  abDir?: string;
  replayDir?: string[];
  drilldownNights: number;
}

/** `nightbench report`: the static history site (index, workload pages, run drill-downs, A/B). */
export const reportCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('report')
        .description('build the static history site (reports/site by default): index, per-workload charts, run drill-downs and A/B pages; it works offline and from file://'),
    )
      .option('-o, --out <dir>', 'folder of the site (default: <reports.dir>/site); files in it that the site no longer has are removed')
      .option('--ab-dir <dir>', 'folder of A/B report JSON files to publish (default: <reports.dir>/ab)')
      .option('--replay-dir <dir>', 'issue files of a replay written elsewhere (its --issues-dir), published as a replay\'s (repeatable; every folder of <reports.dir>/replay is read anyway)', collect)
      .option('--drilldown-nights <n>', 'nights of run drill-down pages per workload (plus the nights of regressions)', parseIntegerOption('--drilldown-nights', 0), 3)
      .option('--json', 'print what was built as JSON')
      .action(async (flags: ReportFlags) => {
        const context = commandContext(flags);
        const { config } = context.loaded;
        // A mistyped --db would otherwise be created empty, and the site built from it would remove
        // every page of the one already in --out.
        const store = openRecordedHistory(context, 'report');
        try {
          const links = configLinks(config);
          const summary = await buildSite({
            store,
            outDir: context.resolve(flags.out ?? `${config.reports.dir}/site`),
            abDir: context.resolve(flags.abDir ?? `${config.reports.dir}/ab`),
            issuesDir: context.resolve(`${config.reports.dir}/issues`),
            replayIssueDirs: [...replayFolders(context.resolve(`${config.reports.dir}/replay`)), ...(flags.replayDir ?? []).map((dir) => context.resolve(dir))],
            policy: config.detection,
            commitUrl: links.commit,
            issueUrl: links.issue,
            episodeIssueFingerprint,
            drilldownNights: flags.drilldownNights,
            now: new Date(),
            log: context.log,
          });
          process.stdout.write(
            flags.json
              ? `${JSON.stringify(summary, null, 2)}\n`
              : `wrote ${summary.pages} pages (${summary.workloads} workloads, ${summary.series} series, ${summary.drilldowns.written} new drill-downs, ${summary.abReports} A/B reports), ${formatMiB(summary.bytes)}, to ${summary.outDir} in ${summary.seconds.total.toFixed(1)} s\n`,
          );
          setExitCode(0);
        } finally {
          store.close();
        }
      });
  },
};

/** The folders `nightbench replay` writes its issue files to by default (<reports.dir>/replay/<from>_<to>), oldest range first. */
function replayFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(dir, entry.name)).sort();
}
