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

/** utime+stime and RSS from /proc/PID/stat; undefined once the process is gone. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
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
