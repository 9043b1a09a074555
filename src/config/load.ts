import { existsSync } from 'node:fs';
import path from 'node:path';
import { configError } from '../errors.js';
import { parseJsonFile, validate } from '../validation.js';
import { configSchema, type Config } from './schema.js';

export const defaultConfigFile = 'nightbench.config.json';

export interface LoadedConfig {
  config: Config;
  /** The file it came from; undefined when the defaults were used. */
  file?: string;
  /** Relative paths in the config are relative to the config file's folder (else the cwd). */
  baseDir: string;
}

/** A dotted path and value to set on the raw config before validation, from CLI flags. */
export type ConfigOverrides = Record<string, unknown>;

/**
 * Reads, overrides and validates the config. Overrides are applied to the raw JSON so that a bad
 * flag is reported with the same key name as a bad value in the file.
 */
export function loadConfig(options: { file?: string; cwd?: string; overrides?: ConfigOverrides } = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file !== undefined;
  const file = path.resolve(cwd, options.file ?? defaultConfigFile);
  let raw: unknown = {};
  if (existsSync(file)) {
    // The config may carry `//` comment lines (`nightbench init` writes them).
    raw = parseJsonFile(file, { commentLines: true });
  } else if (explicit) {
    throw configError(`config file ${file} does not exist`);
  }
  const withOverrides = applyOverrides(raw, options.overrides ?? {});
  // A config valid without the flags makes a bad value a flag's: naming the file would send the
  // user looking there for a key it does not hold. Asked only of a config that fails, so a valid
  // one is parsed once.
  const config = validate(configSchema, withOverrides, () => (configSchema.safeParse(raw).success ? 'command-line options' : existsSync(file) ? file : 'config'));
  return { config, file: existsSync(file) ? file : undefined, baseDir: existsSync(file) ? path.dirname(file) : cwd };
}

export function resolvePath(loaded: LoadedConfig, relative: string): string {
  return path.resolve(loaded.baseDir, relative);
}

function applyOverrides(raw: unknown, overrides: ConfigOverrides): unknown {
  if (Object.keys(overrides).length === 0) return raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const copy: Record<string, unknown> = structuredClone(raw as Record<string, unknown>);
  for (const [dotted, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const keys = dotted.split('.');
    let node: Record<string, unknown> = copy;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return copy;
}
