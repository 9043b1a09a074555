import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { NightbenchError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp-dir.js';

function withConfig(text: string) {
  const dir = tempDir('nb-config-');
  writeFileSync(path.join(dir, 'nightbench.config.json'), text);
  return dir;
}

describe('loadConfig', () => {
  it('runs on the built-in defaults when there is no file: installed Dask on a local cluster', () => {
    const loaded = loadConfig({ cwd: tempDir('nb-empty-') });
    expect(loaded.file).toBeUndefined();
    expect(loaded.config.target).toEqual({ kind: 'installed', name: 'dask', packages: ['dask', 'distributed'] });
    expect(loaded.config.cluster).toMatchObject({ provider: 'local', workers: 2, threadsPerWorker: 1, memoryPerWorker: 2 * 2 ** 30 });
    expect(loaded.config.repeats).toBe(3);
    expect(loaded.config.suites).toEqual(['dask']);
  });

  it('skips whole lines that start with //, and nothing inside a value', () => {
    const loaded = loadConfig({ cwd: withConfig('// a comment\n{\n  // the repeats\n  "repeats": 2,\n  "environment": { "name": "https://x//y" }\n}\n') });
    expect(loaded.config.repeats).toBe(2);
    expect(loaded.config.environment.name).toBe('https://x//y');
    expect(() => loadConfig({ cwd: withConfig('{"repeats": 2 // trailing comments are not comments\n}') })).toThrow(/not valid JSON/);
  });

  it('parses sizes the way people write them', () => {
    const loaded = loadConfig({ cwd: withConfig('{"cluster": {"memoryPerWorker": "512 MiB"}}') });
    expect(loaded.config.cluster.memoryPerWorker).toBe(512 * 2 ** 20);
  });

  it('applies CLI overrides before validation, so a bad flag is named like a bad key', () => {
    const cwd = withConfig('{"repeats": 2}');
    expect(loadConfig({ cwd, overrides: { repeats: 7, 'cluster.workers': 4 } }).config).toMatchObject({ repeats: 7, cluster: { workers: 4 } });
    expect(() => loadConfig({ cwd, overrides: { 'cluster.workers': 0 } })).toThrow(/cluster\.workers: .*>=1/);
  });

  it.each([
    { what: 'malformed JSON', text: '{"repeats": 3,,}', expected: /nightbench\.config\.json: not valid JSON/ },
    { what: 'an unknown key', text: '{"repeat": 3}', expected: /\(top level\): unknown key "repeat"/ },
    { what: 'a wrong type', text: '{"repeats": "three"}', expected: /repeats: .*number/ },
    { what: 'a bad size', text: '{"cluster": {"memoryPerWorker": "lots"}}', expected: /cluster\.memoryPerWorker: must be a size such as "2GiB"/ },
    { what: 'an unknown target kind', text: '{"target": {"kind": "svn"}}', expected: /target\.kind: / },
    { what: 'a git target without repositories', text: '{"target": {"kind": "git", "name": "x", "repositories": []}}', expected: /target\.repositories: / },
    { what: 'a bad repository name', text: '{"target": {"kind": "git", "name": "x", "repositories": [{"name": "a b", "url": "u"}]}}', expected: /target\.repositories\.0\.name: must be a short name/ },
  ])('rejects $what with one line naming the key', ({ text, expected }) => {
    const cwd = withConfig(text);
    let caught: unknown;
    try {
      loadConfig({ cwd });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NightbenchError);
    expect((caught as NightbenchError).kind).toBe('config');
    expect((caught as Error).message).toMatch(expected);
    expect((caught as Error).message).not.toContain('\n');
  });

  it('blames the command-line options, not a valid config file, for a bad flag', () => {
    expect(() => loadConfig({ cwd: withConfig('{"repeats": 3}'), overrides: { repeats: 0 } })).toThrow(/^command-line options: repeats: .*>=1$/);
    // A file that is bad itself is still named.
    expect(() => loadConfig({ cwd: withConfig('{"repeats": 0}'), overrides: { 'cluster.workers': 0 } })).toThrow(/nightbench\.config\.json: /);
  });

  it('says so when an explicit config file is missing', () => {
    expect(() => loadConfig({ file: 'nope.json', cwd: tmpdir() })).toThrow(/config file .*nope\.json does not exist/);
  });

  it('names a config path that is a folder as bad input, in one line', () => {
    const dir = tempDir('nb-config-folder-');
    expect(() => loadConfig({ file: dir })).toThrow(expect.objectContaining({ kind: 'config', message: `${dir}: cannot be read: it is a folder` }));
  });
});
