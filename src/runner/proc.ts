import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** One process as /proc shows it. */
export interface ProcStat {
  pid: number;
  cpuSeconds: number;
  rssBytes: number;
}

function sysconf(name: string, fallback: number): number {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback;
  } catch {
    return fallback;
  }
}

const clockTicks = sysconf('CLK_TCK', 100);
const pageSize = sysconf('PAGESIZE', 4096);

/** The fields of /proc/PID/stat after the command name, from the state on; undefined once it is gone. */
function statFields(pid: number): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** utime+stime and RSS from /proc/PID/stat; undefined once the process is gone. */
export function readProcStat(pid: number): ProcStat | undefined {
  const fields = statFields(pid);
  if (!fields) return undefined;
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  return { pid, cpuSeconds: (utime + stime) / clockTicks, rssBytes: rssPages * pageSize };
}

/** The process and all its descendants, through the kernel's per-task children lists. */
export function processTree(root: number): number[] {
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      } catch {
        // The task ended while we looked.
      }
    }
  }
  return tree;
}

/** CPU seconds this Node process has used, to measure the sampler's own cost. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** This boot of the machine: a start time in clock ticks means something only within one boot. */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

/**
 * What tells a process apart from a later one given the same pid: the boot and its start time
 * (field 22 of /proc/PID/stat, clock ticks after boot). Undefined once it is gone, or a zombie
 * (dead, only waiting for its parent to collect it).
 */
export function processIdentity(pid: number): { bootId: string; startTicks: number } | undefined {
  const fields = statFields(pid);
  if (!fields || fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return { bootId: bootId(), startTicks: Number(fields[19]) };
}

/**
 * Whether the process recorded as `owner` still runs: the same pid, and where the boot and start
 * time were recorded, the same ones too. A pid given to another process since is not it.
 */
export function recordedProcessIsAlive(owner: { pid: number | null; bootId: string | null; startTicks: number | null }): boolean {
  if (owner.pid === null) return false;
  const now = processIdentity(owner.pid);
  if (now === undefined) return false;
  return owner.bootId === null || owner.startTicks === null || (now.bootId === owner.bootId && now.startTicks === owner.startTicks);
}
