/**
 * A lease's heartbeat: while the runner holds EC2 hosts it pushes their expiry forward, both the
 * `nightbench:expires-at` tag the reaper reads and the shutdown each host scheduled for itself at
 * boot, so hosts held for a whole run or a six-hour bisect outlive their first time-to-live. When
 * the holder dies the beats stop, the expiry passes, and the reaper and the hosts' own timers end
 * them as before.
 *
 * @module
 */
import { firstLine } from '../../errors.js';
import type { Log } from '../../log.js';

/** How often to beat for a time-to-live: four beats per time-to-live, at most every 15 minutes. */
export function heartbeatIntervalMs(ttlMinutes: number): number {
  return Math.min(15, ttlMinutes / 4) * 60_000;
}

export interface Heartbeat {
  /** Stops beating and waits for a beat under way. */
  stop(): Promise<void>;
}

/**
 * Calls `beat` every `intervalMs` until stopped, one beat at a time. A failed beat is a warning:
 * the next one tries again, and the expiry still leaves three more beats' worth of time.
 */
export function startHeartbeat(intervalMs: number, beat: () => Promise<void>, log: Log): Heartbeat {
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(beat).catch((error: unknown) => log.warn(`ec2: extending the lease's expiry failed (tried again in ${Math.round(intervalMs / 1000)} s): ${firstLine(error)}`));
  }, intervalMs);
  // The heartbeat alone must not keep the runner's event loop alive.
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await beating;
    },
  };
}
