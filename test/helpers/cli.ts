import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** Runs the real `nightbench` CLI as a user would, in its own process. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, GITHUB_TOKEN: undefined, GH_TOKEN: undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(child, stderr);
    });
    const timeoutMs = options.timeoutMs ?? 300_000;
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Say so when the test's own time limit killed the CLI: a null exit code alone reads as a crash.
      resolve({ code, stdout, stderr: killed ? `${stderr}\n[runCli: killed after ${timeoutMs / 1000} s, the test's time limit]` : stderr });
    });
  });
}
