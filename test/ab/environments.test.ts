import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { abSectionSchema } from '../../src/config/ab-section.js';
import { daskVariables, environmentVariables, abEnvironmentSchema } from '../../src/ab/environment-file.js';
import { environmentConfig, environmentRef, loadEnvironments } from '../../src/ab/environments.js';
import { configSchema } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { tempDir } from '../helpers/temp-dir.js';

function folder(files: Record<string, string>): string {
  const dir = tempDir('nb-ab-env-');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function loadedWith(dir: string, raw: Record<string, unknown>): LoadedConfig {
  return { config: configSchema.parse(raw), file: path.join(dir, 'config.json'), baseDir: dir };
}

describe('daskVariables', () => {
  it('spells each Dask key the way dask.config reads DASK_ variables back', () => {
    expect(daskVariables({ 'distributed.scheduler.worker-saturation': 1.0, 'array.chunk-size': '64MiB', 'distributed.worker.memory.spill': false, 'optimization.fuse.active': null })).toEqual({
      DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION: '1',
      DASK_ARRAY__CHUNK_SIZE: '64MiB',
      DASK_DISTRIBUTED__WORKER__MEMORY__SPILL: 'False',
      DASK_OPTIMIZATION__FUSE__ACTIVE: 'None',
    });
  });

  it('lets an environment\'s own variables win over its Dask settings', () => {
    const environment = abEnvironmentSchema.parse({ name: 'x', daskConfig: { 'array.chunk-size': '1MiB' }, variables: { DASK_ARRAY__CHUNK_SIZE: '2MiB', OMP_NUM_THREADS: '1' } });
    expect(environmentVariables(environment)).toEqual({ DASK_ARRAY__CHUNK_SIZE: '2MiB', OMP_NUM_THREADS: '1' });
  });
});

describe('loadEnvironments', () => {
  const section = (environments: string[]) => abSectionSchema.parse({ environments });

  it('reads the files relative to the config, baseline first', () => {
    const dir = folder({ 'a.json': '{"name": "a"}', 'b.json': '{"name": "b", "target": {"ref": "v1"}}' });
    const loaded = loadEnvironments(loadedWith(dir, {}), section(['a.json', 'b.json']));
    expect(loaded.map((e) => e.environment.name)).toEqual(['a', 'b']);
    expect(environmentRef(loaded[1]!.environment)).toBe('v1');
    expect(environmentRef(loaded[0]!.environment)).toBeUndefined();
  });

  it.each<{ what: string; files: Record<string, string>; list: string[]; error: RegExp }>([
    { what: 'a file that does not parse', files: { 'a.json': '{"name": "a",}' }, list: ['a.json'], error: /a\.json: not valid JSON/ },
    { what: 'an unknown key', files: { 'a.json': '{"name": "a", "varaibles": {}}' }, list: ['a.json'], error: /a\.json: \(top level\): unknown key "varaibles"/ },
    { what: 'a bad Dask value', files: { 'a.json': '{"name": "a", "daskConfig": {"array.chunk-size": [1]}}' }, list: ['a.json'], error: /a\.json: daskConfig\.array\.chunk-size/ },
    { what: 'a bad name', files: { 'a.json': '{"name": "a b"}' }, list: ['a.json'], error: /a\.json: name: must be a short name/ },
    { what: 'a missing file', files: {}, list: ['nope.json'], error: /nope\.json/ },
    { what: 'two environments of one name', files: { 'a.json': '{"name": "same"}', 'b.json': '{"name": "same"}' }, list: ['a.json', 'b.json'], error: /b\.json: name: "same" is also the name of .*a\.json/ },
    { what: 'no environments at all', files: {}, list: [], error: /ab\.environments: list the environment files/ },
  ])('refuses $what with one line naming the file', ({ files, list, error }) => {
    const dir = folder(files);
    expect(() => loadEnvironments(loadedWith(dir, {}), section(list))).toThrow(error);
  });
});

describe('the ab section', () => {
  it('defaults to 8 repeats, the null hypothesis, blocks order, one slot at a time', () => {
    expect(abSectionSchema.parse({ environments: ['a', 'b'] })).toMatchObject({ repeats: 8, nullHypothesis: true, order: 'blocks', blockSize: 1, maxParallel: 1, fdr: 0.05 });
  });

  it('needs a candidate unless the null hypothesis runs', () => {
    expect(abSectionSchema.safeParse({ environments: ['a'], nullHypothesis: false }).success).toBe(false);
    expect(abSectionSchema.safeParse({ environments: ['a'] }).success).toBe(true);
  });
});

describe('environmentConfig', () => {
  const dir = folder({});
  const gitTarget = { kind: 'git', name: 'dask', repositories: [{ name: 'dask', url: '/src/dask' }] };

  it('puts the environment\'s variables, shape and its own work folder over the config', () => {
    const loaded = loadedWith(dir, { environment: { name: 'ignored', variables: { KEEP: '1', OVERRIDE: 'config' } }, cluster: { workers: 4 } });
    const environment = abEnvironmentSchema.parse({ name: 'sat-inf', daskConfig: { 'distributed.scheduler.worker-saturation': 'inf' }, variables: { OVERRIDE: 'env' }, cluster: { threadsPerWorker: 2 } });
    const { config } = environmentConfig(loaded, { file: 'x.json', environment });
    expect(config.environment).toEqual({ name: 'sat-inf', variables: { KEEP: '1', OVERRIDE: 'env', DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION: 'inf' } });
    expect(config.cluster).toMatchObject({ workers: 4, threadsPerWorker: 2 });
    expect(config.workdir).toBe(path.join('.nightbench', 'ab', 'sat-inf'));
  });

  it('tests the installed target on request, keeping the config\'s git target otherwise', () => {
    const loaded = loadedWith(dir, { target: gitTarget });
    expect(environmentConfig(loaded, { file: 'x.json', environment: abEnvironmentSchema.parse({ name: 'i', target: { installed: true } }) }).config.target).toMatchObject({ kind: 'installed', name: 'dask' });
    expect(environmentConfig(loaded, { file: 'x.json', environment: abEnvironmentSchema.parse({ name: 'g', target: { ref: 'main' } }) }).config.target.kind).toBe('git');
  });

  it('refuses a git ref when the config tests the installed target', () => {
    const environment = abEnvironmentSchema.parse({ name: 'g', target: { ref: 'v2' } });
    expect(() => environmentConfig(loadedWith(dir, {}), { file: 'x.json', environment })).toThrow(/x\.json: target\.ref: needs a git target in the config, whose target\.kind is "installed"/);
  });
});
