import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * What `npm pack` ships runs as compiled JavaScript: built in a throw-away copy of the package (so
 * the checkout's own dist/ is never rewritten under the other tests), packed, unpacked where no
 * TypeScript source exists, and run.
 */
describe('the compiled CLI', () => {
  const work = tempDir('nb-build-');
  const copy = path.join(work, 'copy');
  for (const entry of ['package.json', 'README.md', '.github', 'bin', 'src', 'db', 'workloads']) cpSync(path.join(repoRoot, entry), path.join(copy, entry), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
  execFileSync(process.execPath, ['bin/build.js'], { cwd: copy });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: copy, encoding: 'utf8' })) as [{ filename: string; files: { path: string }[] }];
  const shipped = packed[0].files.map((file) => file.path);
  const installed = path.join(work, 'package');
  execFileSync('tar', ['-xzf', path.join(work, packed[0].filename), '-C', work]);
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(installed, 'node_modules'));
  const run = (...args: string[]) => execFileSync(process.execPath, [path.join(installed, 'bin/nightbench.js'), ...args], { cwd: work, encoding: 'utf8' });

  it('ships the build, the migrations and the workloads, and no TypeScript to compile', () => {
    expect(shipped).toContain('dist/cli.js');
    expect(shipped).toContain('bin/nightbench.js');
    expect(shipped.some((file) => file.startsWith('db/migrations/'))).toBe(true);
    expect(shipped.some((file) => file.startsWith('workloads/dask/'))).toBe(true);
    expect(shipped).toEqual(expect.arrayContaining(['.github/actions/nightbench/action.yml', '.github/workflows/nightly-pipeline.yml', '.github/workflows/triage.yml']));
    expect(shipped.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
  });

  it('runs from dist/: help, a migrated history, and pages whose scripts it bundles', () => {
    expect(run('--help')).toContain('nightly');
    const db = path.join(work, 'history.sqlite');
    run('db', 'migrate', '--db', db);
    run('report', '--db', db, '--out', path.join(work, 'site'));
    expect(readdirSync(path.join(work, 'site', 'assets'))).toEqual(expect.arrayContaining(['index.js', 'site.css']));
  });

  it('runs init from the package: the workflows it adopts ship with it', () => {
    const project = path.join(work, 'project');
    execFileSync('git', ['init', '--quiet', project]);
    const output = execFileSync(process.execPath, [path.join(installed, 'bin/nightbench.js'), 'init', '--dry-run', '--json', '--target', 'https://github.com/acme/tinyproj.git'], { cwd: project, encoding: 'utf8' });
    const plan = JSON.parse(output) as { files: { path: string }[] };
    expect(plan.files.map((file) => file.path)).toContain('.github/workflows/triage.yml');
  });

  it('rebuilds without ever leaving dist/ half written: kept when nothing changed, swapped whole when something did', () => {
    const cli = path.join(copy, 'dist', 'cli.js');
    const before = statSync(cli);
    execFileSync(process.execPath, ['bin/build.js'], { cwd: copy });
    // The same files, not deleted and written again: a CLI running from them is never left without one.
    expect(statSync(cli).ino).toBe(before.ino);
    expect(statSync(cli).mtimeMs).toBeGreaterThanOrEqual(before.mtimeMs);
    appendFileSync(path.join(copy, 'src', 'version.ts'), '\nexport const rebuiltProbe = 1;\n');
    execFileSync(process.execPath, ['bin/build.js'], { cwd: copy });
    expect(statSync(cli).ino).not.toBe(before.ino);
    expect(readFileSync(path.join(copy, 'dist', 'version.js'), 'utf8')).toContain('rebuiltProbe');
    expect(readdirSync(copy).filter((name) => name.startsWith('dist'))).toEqual(['dist']);
  });
});
