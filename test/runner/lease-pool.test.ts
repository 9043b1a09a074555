import { describe, expect, it } from 'vitest';
import type { ClusterProvider, ClusterRequest, HostLease } from '../../src/cluster/types.js';
import { silentLog } from '../../src/log.js';
import { LeasePool } from '../../src/runner/lease-pool.js';

/** A provider whose leases say which they are and count their releases; `failures` leases fail first. */
function countingProvider(failures = 0) {
  const leases: { n: number; releases: number }[] = [];
  const provider: ClusterProvider = {
    name: 'counting',
    description: '',
    optionsSchema: undefined as never,
    start: () => Promise.reject(new Error('never started without a lease')),
    lease: async (): Promise<HostLease> => {
      if (failures-- > 0) throw new Error('no capacity');
      const lease = { n: leases.length + 1, releases: 0 };
      leases.push(lease);
      return { start: () => Promise.reject(new Error('not here')), info: () => ({ startupSeconds: lease.n }), release: async () => void lease.releases++ };
    },
  };
  return { provider, leases };
}
const request = { shape: { workers: 2 } } as ClusterRequest;

describe('LeasePool', () => {
  it('leases once per key, reuses the lease for that key, and releases each once with its final info', async () => {
    const { provider, leases } = countingProvider();
    const pool = new LeasePool(silentLog);
    const a = await pool.acquire('run-a', provider, request, '');
    expect(await pool.acquire('run-a', provider, request, '')).toBe(a);
    await pool.acquire('run-b', provider, request, '');
    expect(leases.map((l) => l.n)).toEqual([1, 2]);
    const released = await pool.releaseAll();
    expect(released).toEqual([
      { key: 'run-a', info: { startupSeconds: 1, lease: true } },
      { key: 'run-b', info: { startupSeconds: 2, lease: true } },
    ]);
    expect(leases.map((l) => l.releases)).toEqual([1, 1]);
  });

  it('single: holds one key at a time, giving back the held hosts when another key is asked for, and reports them at the end', async () => {
    const { provider, leases } = countingProvider();
    const pool = new LeasePool(silentLog, undefined, { single: true });
    await pool.acquire('run-a', provider, request, '');
    await pool.acquire('run-a', provider, request, '');
    await pool.acquire('run-b', provider, request, '');
    expect(leases.map((l) => l.releases)).toEqual([1, 0]);
    await pool.acquire('run-a', provider, request, '');
    expect(leases.map((l) => l.n)).toEqual([1, 2, 3]);
    expect((await pool.releaseAll()).map((r) => [r.key, r.info.startupSeconds])).toEqual([
      ['run-a', 1],
      ['run-b', 2],
      ['run-a', 3],
    ]);
    expect(leases.map((l) => l.releases)).toEqual([1, 1, 1]);
  });

  it('gives back one key\'s hosts on release(key) and leases anew when the key is asked for again', async () => {
    const { provider, leases } = countingProvider();
    const pool = new LeasePool(silentLog);
    await pool.acquire('candidate', provider, request, '');
    expect(await pool.release('candidate')).toMatchObject({ key: 'candidate' });
    expect(await pool.release('candidate')).toBeUndefined();
    await pool.acquire('candidate', provider, request, '');
    await pool.releaseAll();
    expect(leases.map((l) => l.releases)).toEqual([1, 1]);
  });

  it('releases every lease at once when the signal aborts, including one taken after the abort', async () => {
    const { provider, leases } = countingProvider();
    const abort = new AbortController();
    const pool = new LeasePool(silentLog, abort.signal);
    await pool.acquire('run-a', provider, request, '');
    abort.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(leases[0]!.releases).toBe(1);
    await pool.acquire('run-b', provider, request, '');
    await new Promise((resolve) => setImmediate(resolve));
    expect(leases[1]!.releases).toBe(1);
  });

  it('hands a provider that leases nothing back as it is, and retries a key whose lease failed', async () => {
    const local: ClusterProvider = { ...countingProvider().provider, lease: undefined };
    const pool = new LeasePool(silentLog);
    expect(await pool.acquire('run', local, request, '')).toBe(local);
    const { provider, leases } = countingProvider(1);
    await expect(pool.acquire('run', provider, request, '')).rejects.toThrow('no capacity');
    await pool.acquire('run', provider, request, '');
    expect(leases).toHaveLength(1);
    expect(await pool.releaseAll()).toHaveLength(1);
  });
});
