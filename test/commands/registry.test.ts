import { spawnSync } from 'node:child_process';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/commands/index.js';
import { repoRoot } from '../helpers/cli.js';

describe('the command registry', () => {
  it('names every verb once', () => {
    const names = commands.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(commands.map((entry) => [entry.name, entry] as const))('%s: its module registers the verb the registry lists, with a one-line summary', async (name, entry) => {
    const program = new Command('nightbench');
    (await entry.load()).register(program, () => undefined);
    expect(program.commands.map((command) => command.name())).toEqual([name]);
    expect(entry.summary).not.toMatch(/\n/);
    expect(entry.summary.length).toBeLessThanOrEqual(100);
  });
});

describe('nightbench --help', () => {
  it('lists every verb without importing any command module or heavy dependency (what keeps the start fast)', () => {
    // A resolve hook that fails the import of a command module, SQLite, Octokit or the AWS SDK.
    const refuse = `export async function resolve(specifier, context, next) {
  const commandModule = /^\\.\\/(?!index|command)[a-z-]+\\.js$/.test(specifier) && context.parentURL?.includes('/commands/');
  if (commandModule || /better-sqlite3|@octokit|@aws-sdk/.test(specifier)) throw new Error('loaded ' + specifier);
  return next(specifier, context);
}`;
    const script = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(refuse)}));
const { main } = await import('./src/cli.ts');
process.exitCode = await main(['--help']);`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).not.toContain('loaded');
    expect(result.status).toBe(0);
    for (const entry of commands) expect(result.stdout).toContain(`  ${entry.name} `);
  });

  it('imports the module of the verb it runs (the hook above can fail)', () => {
    const script = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent("export async function resolve(s, c, n) { if (s.includes('better-sqlite3')) throw new Error('loaded ' + s); return n(s, c); }"));
const { main } = await import('./src/cli.ts');
process.exitCode = await main(['db', 'status', '--help']);`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toContain('loaded better-sqlite3');
  });
});
