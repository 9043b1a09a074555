import type { ClusterInfo, ClusterProvider, ClusterRequest, HostLease } from '../cluster/types.js';
import type { Log } from '../log.js';

/** Where a workload's cluster starts: leased hosts, or the provider itself when it leases none (local). */
export type ClusterHosts = Pick<ClusterProvider, 'start'>;

/** A lease given back, with what its hosts cost in the end; `key` says whose it was. */
export interface ReleasedLease {
  key: string;
  info: ClusterInfo;
}

/**
 * The lifetime of leased hosts over any number of `runSuite` calls: one lease per key, taken the
 * first time the key is asked for and reused by every later call with it; given back by release()
 * or releaseAll(), and at once when the signal aborts. A key names hosts made ready for one thing
 * (a run: its environment, its commits), because a provider may install the target when it leases
 * (EC2 user-data): hosts never pass from one key to another.
 *
 * With `single`, the pool holds one key's hosts at a time: asking for another key first gives back
 * the hosts held. An A/B lane interleaves its groups, and hosts kept for a group while the lane
 * runs the others' slots are billed idle: on EC2 that cost more than booting anew once slots run
 * longer than a boot and install divided by the other groups (bench/ec2-lease.ts). Held per run
 * of consecutive slots, hosts are never idle, and no lane launches more than per-slot leasing did.
 */
export class LeasePool {
  private readonly leases = new Map<string, Promise<HostLease>>();
  /** Leases a `single` pool gave back when another key was asked for; releaseAll() reports them. */
  private readonly switched: ReleasedLease[] = [];
  private readonly releaseOnAbort = () => {
    for (const lease of this.leases.values()) void lease.then((l) => l.release(), () => undefined);
  };

  constructor(
    private readonly log: Log,
    private readonly signal?: AbortSignal,
    private readonly options: { single?: boolean } = {},
  ) {
    signal?.addEventListener('abort', this.releaseOnAbort);
  }

  /** The hosts of `key`: leased now if the pool holds none for it yet. */
  async acquire(key: string, provider: ClusterProvider, request: ClusterRequest, label: string): Promise<ClusterHosts> {
    if (!provider.lease) return provider;
    const held = this.leases.get(key);
    if (held) return held;
    if (this.options.single) {
      for (const other of [...this.leases.keys()]) {
        const given = await this.release(other);
        if (given) this.switched.push(given);
      }
    }
    this.log.info(`${label} leasing ${request.shape.workers}-worker ${provider.name} hosts`);
    const lease = provider.lease(request, this.log);
    this.leases.set(key, lease);
    // A failed lease gave back what it had got; the next acquire of the key tries again.
    lease.catch(() => this.leases.get(key) === lease && this.leases.delete(key));
    if (this.signal?.aborted) this.releaseOnAbort();
    return lease;
  }

  /** Gives back the hosts of `key`, if the pool holds any. */
  async release(key: string): Promise<ReleasedLease | undefined> {
    const lease = this.leases.get(key);
    if (!lease) return undefined;
    this.leases.delete(key);
    const held = await lease.catch(() => undefined);
    if (!held) return undefined;
    await held.release();
    return { key, info: { ...held.info(), lease: true } };
  }

  /** Gives back every lease; the pool is done with after this. Also reports what a `single` pool gave back on the way. */
  async releaseAll(): Promise<ReleasedLease[]> {
    this.signal?.removeEventListener('abort', this.releaseOnAbort);
    const released = await Promise.all([...this.leases.keys()].map((key) => this.release(key)));
    return [...this.switched.splice(0), ...released.filter((r): r is ReleasedLease => r !== undefined)];
  }
}
