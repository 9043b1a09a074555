import path from 'node:path';
import { type LoadedConfig } from '../config/load.js';
import { parseJsonFile, validate } from '../validation.js';
import { installedTargetSchema } from '../config/schema.js';
import { configError } from '../errors.js';
import type { AbSection } from '../config/ab-section.js';
import { abEnvironmentSchema, environmentVariables, type AbEnvironment } from './environment-file.js';

export interface LoadedEnvironment {
  file: string;
  environment: AbEnvironment;
}

/** The A/B's environment files, parsed and validated; every error names the file and key. */
export function loadEnvironments(loaded: LoadedConfig, section: AbSection): LoadedEnvironment[] {
  if (section.environments.length === 0) throw configError(`${loaded.file ?? 'config'}: ab.environments: list the environment files, the baseline first`);
  const environments = section.environments.map((relative) => {
    const file = path.resolve(loaded.baseDir, relative);
    return { file, environment: validate(abEnvironmentSchema, parseJsonFile(file), file) };
  });
  const seen = new Map<string, string>();
  for (const { file, environment } of environments) {
    const other = seen.get(environment.name);
    if (other) throw configError(`${file}: name: "${environment.name}" is also the name of ${other}; each environment needs its own`);
    seen.set(environment.name, file);
  }
  return environments;
}

/**
 * The config one environment runs with: its target, variables and cluster shape over the A/B's
 * config, and a work folder of its own, so that two git refs each keep their checkout between runs.
 */
export function environmentConfig(loaded: LoadedConfig, { file, environment }: LoadedEnvironment): LoadedConfig {
  const { config } = loaded;
  if (environment.target && 'ref' in environment.target && config.target.kind !== 'git') {
    throw configError(`${file}: target.ref: needs a git target in the config, whose target.kind is "${config.target.kind}"`);
  }
  const installed = environment.target !== undefined && 'installed' in environment.target;
  const shape = Object.fromEntries(Object.entries(environment.cluster ?? {}).filter(([, value]) => value !== undefined));
  return {
    ...loaded,
    config: {
      ...config,
      target: installed && config.target.kind !== 'installed' ? installedTargetSchema.parse({ kind: 'installed', name: config.target.name }) : config.target,
      workdir: path.join(config.workdir, 'ab', environment.name),
      environment: { name: environment.name, variables: { ...config.environment.variables, ...environmentVariables(environment) } },
      cluster: { ...config.cluster, ...shape },
    },
  };
}

/** The git ref an environment tests, if any (undefined: the config's target as it is). */
export function environmentRef(environment: AbEnvironment): string | undefined {
  return environment.target && 'ref' in environment.target ? environment.target.ref : undefined;
}
