import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { processIsAlive } from '../../process/processes.js';

/** Where netns clusters of this machine claim their subnets: one file per X of 10.213.X.0/24. */
export const defaultClaimDir = '/run/nightbench/netns-subnets';

export interface SubnetClaim {
  index: number;
  /** Gives the subnet back; safe to call twice. */
  release(): void;
}

/**
 * Claims the first X of 10.213.X.0/24 that no address of this machine uses and no live cluster
 * has claimed. Creating the claim file is atomic (O_EXCL), so two clusters starting at the same
 * moment, in one process or in two, never get the same subnet (nor, since names carry X, the same
 * bridge); a claim whose owner process died is taken over.
 */
export function claimSubnet(usedIndexes: ReadonlySet<number>, options: { dir?: string; owner?: number; isAlive?: (pid: number) => boolean } = {}): SubnetClaim {
  const dir = options.dir ?? defaultClaimDir;
  const owner = options.owner ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  mkdirSync(dir, { recursive: true });
  for (let index = 0; index < 256; index++) {
    if (usedIndexes.has(index)) continue;
    const file = path.join(dir, String(index));
    if (!tryCreate(file, owner) && !takeOver(file, owner, isAlive)) continue;
    let released = false;
    return {
      index,
      release: () => {
        if (released) return;
        released = true;
        if (claimOwner(file) === owner) rmSync(file, { force: true });
      },
    };
  }
  throw new Error('every 10.213.X.0/24 subnet is taken by another netns cluster');
}

/** A claim whose owner died without its teardown: the one racer that gets the takeover lock replaces it. */
function takeOver(file: string, owner: number, isAlive: (pid: number) => boolean): boolean {
  if (isAlive(claimOwner(file))) return false;
  const lock = `${file}.takeover`;
  try {
    mkdirSync(lock);
  } catch {
    return false;
  }
  try {
    if (isAlive(claimOwner(file))) return false;
    rmSync(file, { force: true });
    return tryCreate(file, owner);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function tryCreate(file: string, owner: number): boolean {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, String(owner));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function claimOwner(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8')) || -1;
  } catch {
    return -1;
  }
}
