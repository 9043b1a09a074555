import { z } from 'zod';

/** How one host's link behaves. Bandwidth holds in both directions; the rest applies to what the host sends. */
export const linkSchema = z
  .strictObject({
    /** Megabits per second, each way (tc tbf). */
    bandwidthMbit: z.number().positive().max(100_000).optional(),
    /** Added to every packet the host sends: a round trip between two such hosts takes twice as long (tc netem). */
    delayMs: z.number().min(0).max(10_000).optional(),
    /** Random variation of the delay, ± this much (tc netem). */
    jitterMs: z.number().min(0).max(10_000).optional(),
    /** Share of sent packets dropped (tc netem). */
    lossPercent: z.number().min(0).max(100).optional(),
  })
  .refine((link) => link.jitterMs === undefined || link.delayMs !== undefined, { message: 'jitterMs needs delayMs', path: ['jitterMs'] });

export type LinkShape = z.output<typeof linkSchema>;

/** `cluster.options` when `cluster.provider` is "netns". */
export const netnsOptionsSchema = z.strictObject({
  /** How many hosts the workers share (worker i runs on host i mod n); default: one host per worker. */
  workerHosts: z.number().int().min(1).max(200).optional(),
  /** The link of every host. */
  link: linkSchema.default({}),
  /** Links of single hosts by name ("scheduler", "client", "worker-1", ...), replacing `link` for them. */
  hosts: z.record(z.string(), linkSchema).default({}),
});

export type NetnsOptions = z.output<typeof netnsOptionsSchema>;
