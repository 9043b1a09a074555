import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/** A resolve hook that fails the import of anything from the AWS SDK or the ec2 provider. */
const refuseAws = `export async function resolve(specifier, context, next) {
  if (specifier.includes('@aws-sdk') || specifier.includes('/ec2/')) throw new Error('loaded ' + specifier);
  return next(specifier, context);
}`;

function importWithoutAws(body: string) {
  const script = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(refuseAws)}));
${body}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
}

describe('provider registry', () => {
  it('gives the local provider and the whole CLI without loading the AWS SDK', () => {
    const result = importWithoutAws(`const { getProvider } = await import('./src/cluster/registry.ts');
const { commands } = await import('./src/commands/index.ts');
for (const command of commands) await command.load();
console.log((await getProvider('local')).name);`);
    expect(result.stderr).not.toContain('loaded');
    expect(result.stdout.trim()).toBe('local');
  });

  it('loads the SDK only when the ec2 provider is asked for (the check above can fail)', () => {
    const result = importWithoutAws(`const { getProvider } = await import('./src/cluster/registry.ts');
await getProvider('ec2');`);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/loaded \.\/ec2\/provider\.js/);
  });
});
