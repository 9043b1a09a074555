import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { NightbenchError } from '../errors.js';
import { git } from '../git/git.js';
import { adoptWorkflow } from '../init/adopt-workflow.js';
import { filesToWrite, planFiles, type PlannedFile, type WantedFile } from '../init/plan.js';
import { configText, nightlyCallerText, starterSuiteFiles, type InitChoices, type TargetRepository } from '../init/templates.js';
import { harnessRepository, harnessVersion } from '../version.js';
import { collect, printResult, type CliCommand } from './command.js';

interface InitFlags {
  target?: string[];
  suiteDir: string;
  provider: InitChoices['provider'];
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** nightbench's own workflows that a project takes as they are (nightly.yml is the project's own caller). */
const sharedWorkflows = ['pages.yml', 'triage.yml', 'bisect.yml', 'reaper.yml', 'ab.yml', 'ab-comment.yml'];
const packageWorkflows = new URL('../../.github/workflows/', import.meta.url);

function parseProvider(value: string): InitChoices['provider'] {
  if (value === 'local' || value === 'netns' || value === 'ec2') return value;
  throw new InvalidArgumentError(`--provider must be local, netns or ec2, got "${value}"`);
}

/** `URL[#BRANCH]` -> a target repository named after the URL's last part. */
function parseTarget(spec: string, defaultBranch: string): TargetRepository {
  const [url, branch] = spec.split('#') as [string, string | undefined];
  const name = path.basename(url.replace(/\/+$/, '')).replace(/\.git$/, '');
  if (!url || !name || name.startsWith('-')) throw new NightbenchError('usage', `init: --target "${spec}" is not a repository URL`);
  return { name, url, branch: branch || defaultBranch };
}

/** The repository's remote origin and its default branch: what a project tests when no --target is given. */
async function originTarget(root: string): Promise<TargetRepository> {
  const url = (await git(['remote', 'get-url', 'origin'], root).catch(() => '')).trim();
  if (!url) throw new NightbenchError('usage', 'init: this repository has no remote "origin"; name the repositories to test with --target URL[#BRANCH]');
  const originHead = (await git(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], root).catch(() => '')).trim().replace(/^origin\//, '');
  const current = (await git(['rev-parse', '--abbrev-ref', 'HEAD'], root).catch(() => '')).trim();
  return parseTarget(url, originHead || (current && current !== 'HEAD' ? current : 'main'));
}

function wantedFiles(choices: InitChoices): WantedFile[] {
  return [
    { path: 'nightbench.config.json', content: configText(choices), purpose: 'the config: target repositories, suite, cluster' },
    ...starterSuiteFiles(choices.suiteDir).map((file) => ({ ...file, purpose: 'a starter suite of one workload, to replace with yours' })),
    { path: '.github/workflows/nightly.yml', content: nightlyCallerText(choices), purpose: 'the nightly: the reusable pipeline, then bisects' },
    ...sharedWorkflows.map((file) => ({
      path: `.github/workflows/${file}`,
      content: adoptWorkflow(readFileSync(new URL(file, packageWorkflows), 'utf8'), file, choices.pins),
      purpose: `nightbench's ${file.replace('.yml', '')} workflow`,
    })),
  ];
}

function nextSteps(choices: InitChoices): string[] {
  return [
    `Put your workloads in ${choices.suiteDir}/harness.py (its example runs as it is).`,
    'Try a night here: npx nightbench nightly (the history goes to .nightbench/, issues as Markdown to reports/issues/; keep both out of git).',
    'Commit and push, then on GitHub: Settings > Pages > Source: GitHub Actions, and Actions > nightly > Run workflow.',
    'For A/B tests, add ab/config.json and ab/environments/ (see ab/README.md of nightbench): ab.yml runs on changes there, or by hand.',
    ...(choices.provider === 'ec2' ? ['For ec2: set the repository variables NIGHTBENCH_AWS_ROLE_ARN and NIGHTBENCH_AWS_REGION (an OIDC role; see Adopting in the README of nightbench).'] : []),
  ];
}

const verbs: Record<PlannedFile['action'], string> = { create: 'create', overwrite: 'overwrite', unchanged: 'unchanged', 'keep-changed': 'kept (changed; --force overwrites)' };

/**
 * `nightbench init`: makes a git repository ready for nightbench: a commented config, a starter
 * suite and the workflows, pinned to this nightbench's version. Runs again safely: unchanged files
 * stay, changed ones are kept unless --force.
 */
export const initCommand: CliCommand = {
  register(program: Command, setExitCode) {
    program
      .command('init')
      .description('make this git repository ready for nightbench: a commented config, a starter suite and the workflows (nightly, pages, triage, bisect, reaper, A/B) pinned to this version; files you changed are kept unless --force')
      .option('--target <url[#branch]>', 'a repository to test (repeatable; default: this repository\'s origin at its default branch)', collect)
      .option('--suite-dir <dir>', 'the suite folder, relative to the repository\'s top', 'benchmarks')
      .option('--provider <name>', 'cluster provider: local, netns or ec2', parseProvider, 'local')
      .option('--force', 'overwrite files that differ from what init writes')
      .option('--dry-run', 'print the plan, write nothing')
      .option('--json', 'print the plan and the next steps as JSON')
      .action(async (flags: InitFlags) => {
        const root = (await git(['rev-parse', '--show-toplevel'], process.cwd()).catch(() => {
          throw new NightbenchError('usage', `init: ${process.cwd()} is not inside a git repository (run git init first)`);
        })).trim();
        const suiteDir = flags.suiteDir.replace(/\/+$/, '');
        if (path.isAbsolute(suiteDir) || suiteDir.split('/').includes('..')) throw new NightbenchError('usage', `init: --suite-dir must be a folder inside the repository, got "${flags.suiteDir}"`);
        const fallback = flags.target?.length ? undefined : await originTarget(root);
        const targets = fallback ? [fallback] : flags.target!.map((spec) => parseTarget(spec, 'main'));
        const choices: InitChoices = { targets, suiteDir, provider: flags.provider, pins: { repository: harnessRepository, ref: `v${harnessVersion}` } };
        const plan = planFiles(wantedFiles(choices), (file) => (existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8') : undefined), flags.force ?? false);
        if (!flags.dryRun) {
          for (const file of filesToWrite(plan)) {
            mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
            writeFileSync(path.join(root, file.path), file.content);
          }
        }
        const next = nextSteps(choices);
        const lines = [
          `${flags.dryRun ? 'nightbench init would do, in' : 'nightbench init, in'} ${root}:`,
          ...plan.map((file) => `  ${(flags.dryRun && (file.action === 'create' || file.action === 'overwrite') ? `would ${file.action}` : verbs[file.action]).padEnd(12)} ${file.path}  (${file.purpose})`),
          '',
          'What now:',
          ...next.map((step, i) => `  ${i + 1}. ${step}`),
        ];
        printResult(flags.json, { root, dryRun: flags.dryRun ?? false, files: plan.map(({ path: file, action, purpose }) => ({ path: file, action, purpose })), next }, lines.join('\n'));
        setExitCode(0);
      });
  },
};
