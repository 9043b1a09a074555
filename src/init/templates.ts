/**
 * The files `nightbench init` writes that are the adopting project's own: its config, the nightly
 * that calls the reusable pipeline, and a starter suite. Pure text, so the plan can compare it
 * with what is on disk.
 */
import { pipelineReference, type NightbenchPins } from './adopt-workflow.js';

export interface TargetRepository {
  name: string;
  url: string;
  branch: string;
}

export interface InitChoices {
  targets: TargetRepository[];
  /** The suite folder, relative to the repository's top. */
  suiteDir: string;
  provider: 'local' | 'netns' | 'ec2';
  pins: NightbenchPins;
}

/**
 * nightbench.config.json, with `//` comment lines (the config loader skips whole lines that start
 * with `//`) saying what each key is and where the rest of the keys are documented.
 */
export function configText(choices: InitChoices): string {
  const repositories = choices.targets.map((target) => `      { "name": ${JSON.stringify(target.name)}, "url": ${JSON.stringify(target.url)}, "branch": ${JSON.stringify(target.branch)} }`).join(',\n');
  const pythonPath = choices.targets.map((target) => `{checkout:${target.name}}`).join(':');
  const github = githubRepository(choices.targets[0]!.url);
  return `// nightbench's config for this repository, written by \`nightbench init\` (${choices.pins.ref}).
// Every key is optional; the whole list is in nightbench's README (Configuration).
// Lines that start with // are comments.
{
  // What is tested: these repositories at each night's state. The first is primary (\`--commit\`
  // pins it). The setup puts the checkouts on PYTHONPATH, which for a Python project is the install.
  "target": {
    "kind": "git",
    "name": ${JSON.stringify(choices.targets[0]!.name)},
    "repositories": [
${repositories}
    ],
    "setup": { "env": { "PYTHONPATH": ${JSON.stringify(pythonPath)} } }
  },
  // The suites to run: folders holding a suite.json (relative to this file).
  "suites": [${JSON.stringify(choices.suiteDir)}],
  // Where each workload runs: local (processes on this machine), netns (network namespaces,
  // root) or ec2 (instances; the workflows need the role variables, see the docs).
  "cluster": { "provider": ${JSON.stringify(choices.provider)}, "workers": 2, "memoryPerWorker": "1GiB" },
  // Where the regression issues go (with GITHUB_TOKEN set, as in the workflows); without a
  // token they are written as Markdown files to reports/issues/.
${github ? `  "github": { "repository": ${JSON.stringify(github)} },` : '  // "github": { "repository": "OWNER/REPO" },'}
  // Repeats of each workload a night: more repeats catch smaller changes (\`nightbench tune\` says how many).
  "repeats": 3
}
`;
}

/** owner/name of a GitHub URL (https or ssh), else undefined. */
export function githubRepository(url: string): string | undefined {
  return /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url)?.[1];
}

/** The project's nightly: one `uses:` line for the whole pipeline, with what each job may do. */
export function nightlyCallerText(choices: InitChoices): string {
  return `# The nightly benchmark, written by \`nightbench init\` (${choices.pins.ref}): nightbench's reusable
# pipeline (shards, merge, detect, issues, save, pages), then a bisect of each issue it opened.
name: nightly

on:
  schedule:
    - cron: '17 2 * * *'
  workflow_dispatch:

permissions: {}

jobs:
  nightly:
    permissions:
      contents: write # push the history branch
      issues: write # open, comment on and close regression issues
      pages: write # publish the history pages
      id-token: write # Pages' proof of origin; the ec2 provider's OIDC role
    uses: ${pipelineReference(choices.pins)}
    with:
      config: nightbench.config.json
      provider: ${choices.provider}
      shards: 2
      aws-role-arn: \${{ vars.NIGHTBENCH_AWS_ROLE_ARN }}
      aws-region: \${{ vars.NIGHTBENCH_AWS_REGION }}

  bisect:
    needs: nightly
    if: always() && needs.nightly.outputs.opened-issues != '' && needs.nightly.outputs.opened-issues != '[]'
    strategy:
      fail-fast: false
      max-parallel: 1
      matrix:
        issue: \${{ fromJSON(needs.nightly.outputs.opened-issues) }}
    permissions:
      contents: write
      issues: write
      id-token: write
    uses: ./.github/workflows/bisect.yml
    with:
      issue: \${{ matrix.issue }}
      mode: bisect
`;
}

/** A suite of one workload that runs as it is, to replace with calls into the project's code. */
export function starterSuiteFiles(suiteDir: string): { path: string; content: string }[] {
  const suite = {
    name: suiteDir.split('/').filter(Boolean).at(-1) ?? 'suite',
    description: 'Starter suite written by nightbench init: replace the example workload with your own',
    python: '/usr/bin/python3',
    list: ['{python}', '{suite_dir}/harness.py', 'list'],
    run: ['{python}', '{suite_dir}/harness.py', 'run', '{workload}'],
    ready: ['{python}', '{suite_dir}/harness.py', 'ready'],
    reset: ['{python}', '{suite_dir}/harness.py', 'reset'],
    processes: {
      scheduler: { command: ['{python}', '-m', 'distributed.cli.dask_scheduler', '--host', '{host}', '--port', '{port}', '--dashboard-address', ':0', '--no-show'], address: 'tcp://{host}:{port}' },
      worker: { command: ['{python}', '-m', 'distributed.cli.dask_worker', '{scheduler_address}', '--host', '{host}', '--nthreads', '{threads}', '--memory-limit', '{memory_limit}', '--local-directory', '{workdir}', '--name', '{name}', '--no-dashboard'] },
    },
  };
  return [
    { path: `${suiteDir}/suite.json`, content: `${JSON.stringify(suite, null, 2)}\n` },
    { path: `${suiteDir}/harness.py`, content: starterHarness },
  ];
}

const starterHarness = `"""nightbench suite harness, written by \`nightbench init\`.

nightbench calls it as \`harness.py list\`, \`ready\`, \`reset\` and \`run WORKLOAD\` while a Dask
cluster runs (its scheduler address in NIGHTBENCH_SCHEDULER_ADDRESS). A workload returns its
metrics; nightbench measures wall time, CPU and memory of the whole cluster itself.
"""
import json
import os
import sys

from distributed import Client


def example(client):
    """Replace with a workload that calls your project (it is on PYTHONPATH)."""
    futures = client.map(lambda x: x * x, range(200))
    total = client.submit(sum, futures).result()
    return {"tasks": {"value": 201, "unit": "count"}, "checksum": {"value": total, "unit": "count"}}


WORKLOADS = {"example": (example, "sums 200 squares in tasks")}


def main(argv):
    if argv[1] == "list":
        suite = os.path.basename(os.path.dirname(os.path.abspath(__file__)))
        print(json.dumps({"suite": suite, "workloads": [
            {"name": name, "description": description, "version": "1",
             "metrics": [{"name": "tasks", "unit": "count", "direction": "none"}]}
            for name, (_, description) in WORKLOADS.items()]}))
        return 0
    client = Client(os.environ["NIGHTBENCH_SCHEDULER_ADDRESS"], timeout=60)
    workers = int(os.environ["NIGHTBENCH_WORKERS"])
    if argv[1] == "ready":
        client.wait_for_workers(workers, timeout=60)
    elif argv[1] == "reset":
        client.restart()
        client.wait_for_workers(workers, timeout=60)
    elif argv[1] == "run":
        metrics = WORKLOADS[argv[2]][0](client)
        with open(os.environ["NIGHTBENCH_METRICS_FILE"], "w") as out:
            json.dump({"metrics": metrics}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
`;
