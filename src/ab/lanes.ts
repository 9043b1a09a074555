import type { Log } from '../log.js';
import { LeasePool, type ReleasedLease } from '../runner/lease-pool.js';

/**
 * Runs `work` on the items in order, at most `limit` at a time, each on one of `limit` lanes. A
 * lane keeps the hosts it leases for as long as its items ask for the same key (a `single`
 * LeasePool): consecutive slots of one run share one boot, and no hosts wait idle while the lane
 * runs another group's slots. It gives them back when another key is asked for, once no item is
 * left for it, or at once on abort. Returns every lease given back, for the runs' cost.
 */
export async function runLanes<T>(items: readonly T[], limit: number, deps: { log: Log; signal?: AbortSignal }, work: (item: T, index: number, leases: LeasePool) => Promise<void>): Promise<ReleasedLease[]> {
  const released: ReleasedLease[] = [];
  let next = 0;
  const lane = async () => {
    const leases = new LeasePool(deps.log, deps.signal, { single: true });
    try {
      while (next < items.length && !deps.signal?.aborted) {
        const index = next++;
        await work(items[index]!, index, leases);
      }
    } finally {
      released.push(...(await leases.releaseAll()));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return released;
}
