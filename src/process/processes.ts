import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import path from 'node:path';

export interface CommandSpec {
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  /** Ctrl-C or SIGTERM of the whole run: the command's process group is killed at once. */
  signal?: AbortSignal;
  /** Called with the pid (and process group id) of the command once it is supervised, before it runs. */
  onSpawn?: (pid: number) => void;
}

export interface CommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  /** The last few kilobytes of stderr: enough for a traceback, bounded for the history. */
  stderrTail: string;
}


const tailBytes = 8192;

/** Keeps the last few kilobytes of a stream: tracebacks end there, and memory stays bounded. */
export class Tail {
  private text = '';
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-tailBytes);
  }
  toString(): string {
    return this.text;
  }
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * What a supervisor runs: it blocks reading its stdin, a pipe whose other end only this runner
 * holds. A line on it means the runner stopped the group itself; end of file without one means
 * the runner is gone, however it ended (SIGKILL and out-of-memory kills included), so the
 * supervisor ends the group as a normal stop would: TERM, then KILL after a grace period.
 * It ignores the terminal's INT and HUP: on Ctrl-C the runner stops its clusters itself.
 */
const supervisorScript = `trap '' INT HUP
read -r _ && exit 0
kill -TERM -"$1" 2>/dev/null || exit 0
i=0
while [ $i -lt 30 ] && kill -0 -"$1" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -KILL -"$1" 2>/dev/null
exit 0`;

/** The supervisor's name in `ps`: tests and operators find it by this. */
export const supervisorName = 'nightbench-supervisor';

/**
 * Ends process group `pgid` if this process dies without releasing it. The supervisor is a
 * `sh` of about a megabyte asleep in `read`, in a group of its own and a sibling of the group it
 * watches (a child of the runner, not of the cluster process), so it is never part of the
 * process tree the sampler measures. Linux's parent-death signal is not reachable from Node and
 * would only reach a direct child anyway, not the grandchildren a Dask nanny starts.
 */
function superviseGroup(pgid: number): { release(): void } {
  const supervisor = spawn('sh', ['-c', supervisorScript, supervisorName, String(pgid)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  // Neither the supervisor nor its pipe may keep the runner's event loop alive.
  supervisor.unref();
  const pipe = supervisor.stdin!;
  (pipe as unknown as { unref(): void }).unref();
  // A supervisor that is already gone (killed by someone) makes the write fail: nothing to do.
  pipe.on('error', () => undefined);
  supervisor.on('error', () => undefined);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      pipe.end('stopped\n');
    },
  };
}

/**
 * What a gated command runs first: it waits for the runner's go-ahead on its stdin and only then
 * becomes the command (same pid, same group), with stdin from /dev/null as an ungated command has.
 * End of file without a go-ahead means the runner died before it could supervise the command:
 * the shell exits without running it.
 */
const gateScript = `read -r _ || exit 97
exec "$@" </dev/null`;

/** A command spawned but held at its gate: `start` lets it run. */
export interface GatedChild {
  child: ChildProcess;
  start(): void;
}

/** Spawns `argv` in a process group of its own, held at a gate until `start` is called. */
export function spawnGated(argv: string[], options: { env: Record<string, string>; cwd?: string }): GatedChild {
  const child = spawn('sh', ['-c', gateScript, 'nightbench-gate', ...argv], {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const gate = child.stdin!;
  // A child that already ended (it could not start) makes the write fail: its exit says why.
  gate.on('error', () => undefined);
  return { child, start: () => gate.end('start\n') };
}

/**
 * Spawns `argv` in a process group of its own whose command runs only once a supervisor watches
 * the group and `onSpawn` has seen its pid (the run's ledger records it there). Were the command
 * to run before, a runner killed between the two spawns (under load that is tens of
 * milliseconds) would leave it running, unsupervised and unrecorded: an A/B killed as a slot
 * started its cluster left its scheduler behind that way.
 */
export function spawnSupervised(
  argv: string[],
  options: { env: Record<string, string>; cwd?: string; onSpawn?: (pid: number) => void },
): { child: ChildProcess; supervisor?: { release(): void } } {
  const { child, start } = spawnGated(argv, options);
  if (child.pid === undefined) return { child };
  const supervisor = superviseGroup(child.pid);
  options.onSpawn?.(child.pid);
  start();
  return { child, supervisor };
}

/** A long-running cluster process in its own process group, so stopping it stops its children too. */
export class ManagedProcess {
  readonly exited: Promise<ProcessExit>;
  exit?: ProcessExit;
  private readonly stderr = new Tail();
  private readonly child: ChildProcess;
  private readonly supervisor?: { release(): void };

  constructor(
    readonly name: string,
    argv: string[],
    options: { env: Record<string, string>; cwd?: string; logDir: string; onSpawn?: (pid: number) => void },
  ) {
    mkdirSync(options.logDir, { recursive: true });
    const logFile = createWriteStream(path.join(options.logDir, `${name}.log`));
    ({ child: this.child, supervisor: this.supervisor } = spawnSupervised(argv, options));
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        this.stderr.push(chunk);
        logFile.write(chunk);
      });
    }
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.stderr.push(`${error.message}\n`);
        this.exit = { code: 127, signal: null };
        resolve(this.exit);
      });
      this.child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        logFile.end();
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get output(): string {
    return this.stderr.toString();
  }

  /** SIGTERM to the whole group, SIGKILL after the grace period; resolves once it is gone. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.exit) {
      killGroup(this.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(this.pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    // Children that ignored the TERM (or were re-parented) still belong to the group.
    killGroup(this.pid, 'SIGKILL');
    this.supervisor?.release();
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Runs a command to completion with a time limit; on timeout its whole process group is killed. */
export function runCommand(spec: CommandSpec): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const { child, supervisor } = spawnSupervised(spec.argv, spec);
    const stderr = new Tail();
    let stdout = '';
    let timedOut = false;
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid ?? -1, 'SIGKILL');
    }, spec.timeoutMs);
    const abort = () => killGroup(child.pid ?? -1, 'SIGKILL');
    spec.signal?.addEventListener('abort', abort);
    if (spec.signal?.aborted) abort();
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', abort);
      killGroup(child.pid ?? -1, 'SIGKILL');
      supervisor?.release();
      resolve({ exitCode, signal, timedOut, durationMs: Date.now() - started, stdout, stderrTail: stderr.toString() });
    };
    child.on('error', (error) => {
      stderr.push(`${error.message}\n`);
      finish(127, null);
    });
    child.on('close', finish);
  });
}

/** A TCP port that was free a moment ago (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Waits until something accepts connections on host:port, or the deadline or `gaveUp` comes first. */
export async function waitForPort(host: string, port: number, deadline: number, gaveUp: () => string | undefined): Promise<void> {
  while (Date.now() < deadline) {
    const reason = gaveUp();
    if (reason) throw new Error(reason);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on ${host}:${port} in time`);
}

/** Whether a process of this machine exists (a signal-0 probe; EPERM means it exists). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
