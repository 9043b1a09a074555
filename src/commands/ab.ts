import path from 'node:path';
import type { Command } from 'commander';
import { abResultComment, listAbTests, postAbResult, publishAbReport, runAndPublishAb, type AbPublishOptions } from '../ab/publish.js';
import type { AbTestRecord } from '../ab/test-record.js';
import type { HistoryStore } from '../history/store.js';
import { NightbenchError } from '../errors.js';
import { repositoryFullName } from '../config/github-section.js';
import { gitHubClientFromEnv } from '../issues/github/client.js';
import { upsertPullRequestComment } from '../issues/github/pull-request-comment.js';
import { addCommonOptions, parseIntegerOption, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext, openContextHistory, openRecordedHistory, type CommandContext } from './context.js';
import { abortOnSignals, addRunOptions, runOverrides, type RunFlags } from './run-options.js';

interface ReportFlags extends CommonOptions {
  markdown?: string;
  result?: string;
  page: boolean;
}

interface CommentFlags extends CommonOptions {
  result: string;
  pr: number;
  repository?: string;
  reportUrl?: string;
  dryRun?: boolean;
}

interface AbRunFlags extends RunFlags, ReportFlags {
  seed?: number;
  order?: string;
  null: boolean;
}

function addReportOptions(command: Command): Command {
  return command
    .option('--markdown <file>', 'also write the report as Markdown; a GitHub job summary gets it anyway')
    .option('--result <file>', 'also write the report as JSON, for `ab comment` to post on a pull request')
    .option('--no-page', 'do not write the A/B page data for the site (<reports.dir>/ab/)');
}

/**
 * `nightbench ab run|report|comment|list`: A/B tests of environments (ab/config.json, ab/environments/),
 * recorded in the history as runs of kind "ab" and analysed again at will.
 */
export const abCommand: CliCommand = {
  register(program: Command, setExitCode) {
    const ab = program.command('ab').description('A/B tests: environments against a baseline, interleaved on the same cluster shape, with an A/A null hypothesis');

    addReportOptions(addRunOptions(ab.command('run').description('run the A/B of the config\'s ab section and report it')))
      .option('--seed <n>', 'seed of the order and the bootstrap (default: ab.seed, else random; always recorded)', parseIntegerOption('--seed'))
      .option('--order <kind>', 'blocks (A B B A ...) or random (seeded)')
      .option('--no-null', 'skip the null hypothesis (the baseline run twice, A and A\')')
      .action(async (flags: AbRunFlags) => {
        // --repeats and the order belong to the A/B section here, not to the nightly repeats.
        const context = commandContext(flags, { ...runOverrides(flags), repeats: undefined, 'ab.repeats': flags.repeats, 'ab.order': flags.order, 'ab.nullHypothesis': flags.null ? undefined : false });
        // Opened once, when the A/B is ready to record: a bad environment or workload creates no history.
        let store: HistoryStore | undefined;
        const openStore = () => (store ??= openContextHistory(context));
        const signals = abortOnSignals();
        try {
          const record = await runAndPublishAb(context.loaded, openStore, context.log, { seed: flags.seed, night: flags.night, signal: signals.signal }, publishOptions(context, flags));
          // An A/B that could not run every test in full exits 1 like a failed one: the candidate may be
          // what broke the workload, and a check that stays green would hide it (the report still says which).
          setExitCode(signals.received() ? 130 : record.status === 'complete' ? 0 : 1);
        } finally {
          signals.dispose();
          store?.close();
        }
      });

    addReportOptions(addCommonOptions(ab.command('report').description('analyse a recorded A/B again and print its report (no rerun)')))
      .argument('<id>', 'the A/B\'s id (or the start of it, as `ab list` prints)')
      .option('--json', 'print the analysis as JSON on stdout')
      .action(async (id: string, flags: ReportFlags) => {
        const context = commandContext(flags);
        const store = openRecordedHistory(context, 'ab report');
        try {
          await publishAbReport(store.ab.abTest<AbTestRecord>(id), store, publishOptions(context, flags), context.log);
          setExitCode(0);
        } finally {
          store.close();
        }
      });

    addCommonOptions(ab.command('comment').description('post an A/B result on its pull request as one comment, edited in place on a re-run'))
      .requiredOption('--result <file>', 'the result JSON that `ab run|report --result` wrote')
      .requiredOption('--pr <n>', 'the pull request\'s number', parseIntegerOption('--pr', 1))
      .option('--repository <owner/name>', 'the repository (default: github.repository, else $GITHUB_REPOSITORY)')
      .option('--report-url <url>', 'where the full report is (e.g. the A/B workflow run); linked from the comment')
      .option('--json', 'print what was done (created or updated, the comment\'s id and address) as JSON')
      .option('--dry-run', 'print the comment\'s Markdown on stdout instead of posting it (no token, no repository, no GitHub)')
      .addHelpText('after', `\nThe token is read from the variable github.tokenEnv names (default GITHUB_TOKEN); it needs only pull-requests: write.\nThe comment is found again by a hidden marker, only among comments by the token's own login.\nExit codes: 0 when posted, 2 on bad input (a result file of another shape included), 6 when GitHub kept failing.`)
      .action(async (flags: CommentFlags) => {
        const context = commandContext(flags);
        if (flags.pr < 1) throw new NightbenchError('usage', `--pr must be a pull request number (got ${flags.pr})`);
        // What a maintainer (or a workflow's debug step) reads before anything reaches the pull request.
        if (flags.dryRun) {
          process.stdout.write(abResultComment(flags.result, flags.reportUrl));
          setExitCode(0);
          return;
        }
        const github = context.loaded.config.github;
        const repository = flags.repository ?? github.repository ?? process.env['GITHUB_REPOSITORY'];
        if (!repository || !repositoryFullName.test(repository)) throw new NightbenchError('usage', `ab comment needs the repository as owner/name: --repository, github.repository or $GITHUB_REPOSITORY (got ${repository ?? 'none'})`);
        const client = gitHubClientFromEnv(github, 'ab comment', context.log);
        const posted = await postAbResult(flags.result, flags.reportUrl, (marker, body) => upsertPullRequestComment(client, repository, flags.pr, marker, body));
        printResult(flags.json, posted, `${posted.action} ${posted.url}`);
        setExitCode(0);
      });

    addCommonOptions(ab.command('list').description('the recorded A/B tests, newest first'))
      .option('--json', 'machine-readable output')
      .action((flags: CommonOptions) => {
        const store = openRecordedHistory(commandContext(flags), 'ab list');
        try {
          const listed = listAbTests(store);
          printResult(flags.json, listed.data, listed.text);
          setExitCode(0);
        } finally {
          store.close();
        }
      });
  },
};

/** Where the report goes, from the flags: stdout (JSON with --json), the files asked for, the site's A/B pages unless --no-page. */
function publishOptions(context: CommandContext, flags: ReportFlags): AbPublishOptions {
  return {
    markdownFile: flags.markdown && path.resolve(flags.markdown),
    resultFile: flags.result && path.resolve(flags.result),
    pagesDir: flags.page ? path.join(context.resolve(context.loaded.config.reports.dir), 'ab') : undefined,
    show: (report, terminal) => process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : terminal),
  };
}
