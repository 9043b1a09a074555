import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { configError } from '../errors.js';
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
    raw = parseJsonFile(file);
  } else if (explicit) {
    throw configError(`config file ${file} does not exist`);
  }
  const withOverrides = applyOverrides(raw, options.overrides ?? {});
  const config = validate(configSchema, withOverrides, existsSync(file) ? file : 'config');
  return { config, file: existsSync(file) ? file : undefined, baseDir: existsSync(file) ? path.dirname(file) : cwd };
}

export function resolvePath(loaded: LoadedConfig, relative: string): string {
  return path.resolve(loaded.baseDir, relative);
}

/** Parses JSON, turning a syntax error into one line that names the file and position. */
export function parseJsonFile(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw configError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
}

/** Validates with a zod schema; the first problem becomes "where: key.path: what is allowed". */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const key = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    return `${key}: ${describeIssue(issue)}`;
  });
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw configError(`${where}: ${issues[0]}${more}`);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    return `${issue.message}`;
  }
  return issue.message;
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
