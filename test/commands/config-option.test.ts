import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The reusable pipeline names its config once, as NIGHTBENCH_CONFIG, for every step. */
describe('--config from NIGHTBENCH_CONFIG', () => {
  const dir = tempDir('nb-config-env-');
  writeFileSync(path.join(dir, 'from-env.json'), JSON.stringify({ history: { path: 'env.sqlite' } }));
  writeFileSync(path.join(dir, 'from-flag.json'), JSON.stringify({ history: { path: 'flag.sqlite' } }));
  const historyFile = async (args: string[], config: string | undefined) => {
    const result = await runCli(['db', 'migrate', '--json', ...args], { cwd: dir, env: { NIGHTBENCH_CONFIG: config } });
    expect(result.code, result.stderr).toBe(0);
    return path.relative(dir, (JSON.parse(result.stdout) as { file: string }).file);
  };

  it('reads the config the variable names; a --config flag wins; an empty one means the default', async () => {
    expect(await historyFile([], 'from-env.json')).toBe('env.sqlite');
    expect(await historyFile(['--config', 'from-flag.json'], 'from-env.json')).toBe('flag.sqlite');
    expect(await historyFile([], '')).toBe(path.join('.nightbench', 'history.sqlite'));
  });
});
