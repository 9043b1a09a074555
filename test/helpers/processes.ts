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
