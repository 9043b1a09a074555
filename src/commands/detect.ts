import type { Command } from 'commander';
import { renderReport } from '../detect/table.js';
import { detectNight } from '../nightly/pipeline.js';
import { addCommonOptions, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';
import { nightOption } from './input.js';

interface DetectOptions extends CommonOptions {
  night?: string;
  suite?: string;
  dryRun?: boolean;
  all?: boolean;
}

/** `nightbench detect`: judges a night of the history and updates the regression episodes. */
export const detectCommand: CliCommand = {
  register(program: Command, setExitCode) {
    addCommonOptions(
      program
        .command('detect')
        .description('judge the latest night (or --night) of every series against its history (one night alone, or the nights since a shift) and update the episodes')
        .option('--night <date>', 'the night to judge, YYYY-MM-DD (default: the latest nightly night in the history)', nightOption)
        .option('--suite <name>', 'only the series of this suite')
        .option('--dry-run', 'show what would change in the regressions table without storing it')
        .option('--all', 'list stable series and every open episode too')
        .option('--json', 'print the whole report (every verdict, the episode changes, the open episodes) as JSON')
        .addHelpText(
          'after',
          '\nExit codes: 0 when no regression episode is open after this night, 1 when one is (open or still regressed),\n2 on bad input or config, 4 when the history database cannot be read or written.',
        ),
    ).action((options: DetectOptions) => {
      const context = commandContext(options);
      const report = detectNight(context, options);
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderReport(report, { all: options.all })}\n`);
      setExitCode(report.activeEpisodes.some((e) => e.kind === 'regression') ? 1 : 0);
    });
  },
};
