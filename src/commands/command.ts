import { InvalidArgumentError, Option, type Command } from 'commander';

/**
 * A CLI verb: it adds itself to the program and reports its exit code through `setExitCode`
 * (commander's action handlers return nothing the CLI can use).
 */
export interface CliCommand {
  register(program: Command, setExitCode: (code: number) => void): void;
}

/** Options shared by every command that reads the config. */
export interface CommonOptions {
  config?: string;
  db?: string;
  json?: boolean;
  verbose?: boolean;
  quiet?: boolean;
}

export function addCommonOptions(command: Command): Command {
  return command
    // From the environment too, so a workflow names its config once for every step.
    .addOption(new Option('-c, --config <file>', 'config file (default: nightbench.config.json if present, else the built-in defaults)').env('NIGHTBENCH_CONFIG'))
    .option('--db <file>', 'history database (default: history.path of the config)')
    .option('-v, --verbose', 'more progress output on stderr')
    .option('-q, --quiet', 'no progress output');
}

/** The command's result on stdout: `data` as JSON with --json, else `text`. */
export function printResult(json: boolean | undefined, data: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

/** commander collects repeatable options through a reducer like this one. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter(Boolean)];
}

/** A commander parser of a whole number, at least `min` when given (a count or a duration no config key checks later). */
export function parseIntegerOption(name: string, min?: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed)) throw new InvalidArgumentError(`${name} must be a whole number, got "${value}"`);
    if (min !== undefined && parsed < min) throw new InvalidArgumentError(`${name} must be at least ${min}, got "${value}"`);
    return parsed;
  };
}

/** A commander parser of a finite number, at least `min` when given. */
export function parseNumberOption(name: string, min?: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) throw new InvalidArgumentError(`${name} must be a number, got "${value}"`);
    if (min !== undefined && parsed < min) throw new InvalidArgumentError(`${name} must be at least ${min}, got "${value}"`);
    return parsed;
  };
}
