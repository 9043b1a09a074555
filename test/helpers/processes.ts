import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/**
 * Dask processes whose working directory lies under `dir`: the cluster processes a test started
 * (providers start them in the run's work folder). Any left after a command is an orphan.
 */
export function leftoverClusterProcesses(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cwd.startsWith(dir) && /distributed|dask/.test(cmdline)) found.push(`${entry}: ${cmdline.trim()}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Pids of the live (not zombie) processes of these process groups. */
export function processesInGroups(pgids: readonly number[]): number[] {
  const wanted = new Set(pgids);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && wanted.has(Number(pgrp))) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The supervisors (src/process/processes.ts) among the children of `parent`. */
export function supervisorsOf(parent: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${parent}/task`)) {
    children.push(...readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number));
  }
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nightbench-supervisor');
    } catch {
      return false;
    }
  });
}

/**
 * Polls `done` every 100 ms until it holds or `timeoutMs` passes; returns the seconds it took, or
 * undefined. A loaded machine makes fixed sleeps flaky: generous deadlines do not.
 */
export async function secondsUntil(done: () => boolean, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (done()) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done() ? (Date.now() - started) / 1000 : undefined;
}
