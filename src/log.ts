/**
 * Progress goes to stderr so that stdout stays clean for --json; tests pass a log that records.
 */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

export function stderrLog(options: { verbose?: boolean; quiet?: boolean } = {}): Log {
  const started = Date.now();
  const stamp = () => `[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s]`;
  return {
    info: (message) => {
      if (!options.quiet) process.stderr.write(`${stamp()} ${message}\n`);
    },
    warn: (message) => process.stderr.write(`${stamp()} warning: ${message}\n`),
    debug: (message) => {
      if (options.verbose) process.stderr.write(`${stamp()} ${message}\n`);
    },
  };
}

export const silentLog: Log = { info: () => {}, warn: () => {}, debug: () => {} };
