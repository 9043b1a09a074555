import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = fileURLToPath(new URL('../../bin/nightbench.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Called with the child process and its stderr so far whenever stderr grows (to signal it). */
  onStderr?: (child: ChildProcess, stderr: string) => void;
}

/**
 * A hang guard, not a speed check: long enough for the slowest end-to-end step on a loaded
 * 2-core machine (under load 16 a shard of real Dask repeats took 187 s, three times its idle
 * time, and an A/B of 18 repeats more than 900 s), and shorter than a test's own limit.
 */
export const cliTimeoutMs = 1_500_000;

/** How long the output pipes may stay open after the CLI exited (held by a process it left behind). */
const pipeGraceMs = 30_000;

/**
 * Runs the real `nightbench` CLI as a user would, in its own process group, so that the time
 * limit kills whatever the CLI started too. The result comes when the CLI's output ends, or
 * `pipeGraceMs` after it exited if a process it left behind still holds its output (and says so):
 * waiting for that process would hang the test with nothing to show.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, GITHUB_TOKEN: undefined, GH_TOKEN: undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(child, stderr);
    });
    const timeoutMs = options.timeoutMs ?? cliTimeoutMs;
    const notes: string[] = [];
    const timer = setTimeout(() => {
      notes.push(`[runCli: killed after ${timeoutMs / 1000} s, the test's time limit]`);
      killGroup(child);
    }, timeoutMs);
    let graceTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      // Say so when the test's own time limit killed the CLI: a null exit code alone reads as a crash.
      resolve({ code, stdout, stderr: notes.length > 0 ? `${stderr}\n${notes.join('\n')}` : stderr });
    };
    child.on('error', (error) => {
      // The CLI never started: nothing is left to time or kill.
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      graceTimer = setTimeout(() => {
        notes.push(`[runCli: the output was still held open ${pipeGraceMs / 1000} s after the CLI exited, by a process it left behind]`);
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, pipeGraceMs);
    });
    child.on('close', (code) => finish(code));
  });
}

/** One CLI step of a test: its arguments, the exit code it must end with, and options beyond the test's own. */
export type CliStep = (args: string[], expectedCode?: number | null, options?: CliOptions) => Promise<CliResult>;

/**
 * The CLI run in one test's directory and environment: a step that ends with another exit code
 * fails the test with the end of its stderr. `timed` prints each step's wall time on stderr, for
 * the end-to-end tests whose steps are slow enough to watch.
 */
export function cliIn(cwd: string, env: CliOptions['env'] = {}, { timed = false } = {}): CliStep {
  return async (args, expectedCode = 0, options = {}) => {
    const began = Date.now();
    const result = await runCli(args, { cwd, env, ...options });
    if (timed) process.stderr.write(`  ${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s  nightbench ${args.join(' ')}\n`);
    expect(result.code, result.stderr.slice(-3000)).toBe(expectedCode);
    return result;
  };
}

/** SIGKILL to the child's process group (it leads one: spawned detached). */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
