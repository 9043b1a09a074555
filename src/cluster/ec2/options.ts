import { z } from 'zod';

/** What one hour of an instance type costs, for the run's cost figure (not a bill: an estimate). */
const hourlyPrice = z.strictObject({
  onDemand: z.number().nonnegative(),
  /** The usual spot price; spot instances without it are costed at the on-demand price. */
  spot: z.number().nonnegative().optional(),
});

/**
 * `cluster.options` when `cluster.provider` is "ec2". The worker count is `cluster.workers`: one
 * instance per worker, plus one for the scheduler.
 */
export const ec2OptionsSchema = z
  .strictObject({
    region: z.string().min(1),
    /** Tagged on every instance; the reaper only touches instances of this repository. */
    repository: z.string().min(1),
    /** The machine image; or a launch template that names one. */
    ami: z.string().regex(/^ami-[0-9a-f]+$/, 'must be an AMI id such as "ami-0123456789abcdef0"').optional(),
    launchTemplate: z
      .strictObject({
        id: z.string().regex(/^lt-[0-9a-f]+$/, 'must be a launch template id such as "lt-0123456789abcdef0"').optional(),
        name: z.string().min(1).optional(),
        version: z.string().min(1).default('$Default'),
      })
      .refine((t) => (t.id === undefined) !== (t.name === undefined), 'needs exactly one of "id" and "name"')
      .optional(),
    /** Tried in order when a type has no capacity anywhere: the first is the one results are compared on. */
    instanceTypes: z.array(z.string().min(1)).min(1),
    /** Tried in order for each instance type when a zone has no capacity for it. */
    subnets: z.array(z.string().regex(/^subnet-[0-9a-f]+$/, 'must be a subnet id such as "subnet-0123abcd"')).min(1),
    securityGroups: z.array(z.string().regex(/^sg-[0-9a-f]+$/, 'must be a security group id such as "sg-0123abcd"')).min(1),
    /** "spot" falls back to on-demand once every instance type and subnet has no spot capacity. */
    market: z.enum(['spot', 'on-demand']).default('spot'),
    /** After this, an instance is the reaper's and shuts itself down (terminating, not stopping). */
    ttlMinutes: z.number().int().min(10).max(24 * 60).default(180),
    /** Per-hour prices in USD by instance type; every type in instanceTypes needs one. */
    prices: z.record(z.string(), hourlyPrice),
    /**
     * Shell run as root on every instance before its process starts: installs the target at the
     * commit under test. Its {placeholders} are the run's (e.g. {python}, {suite_dir}).
     */
    setup: z.string().default(''),
    schedulerPort: z.number().int().min(1).max(65535).default(8786),
    /** Where each instance's nightbench agent listens (start and stop the suite's processes); the security group must let the runner reach it. */
    agentPort: z.number().int().min(1).max(65535).default(8787),
    /** Reach the scheduler by its public address (runner outside the VPC) instead of its private one. */
    publicAddress: z.boolean().default(false),
    iamInstanceProfile: z.string().min(1).optional(),
    keyName: z.string().min(1).optional(),
    /** First wait after a capacity error; it doubles with every further one (at most 60 s). */
    backoffSeconds: z.number().min(0).max(60).default(2),
  })
  .superRefine((options, context) => {
    if ((options.ami === undefined) === (options.launchTemplate === undefined)) {
      context.addIssue({ code: 'custom', path: ['ami'], message: 'needs exactly one of "ami" and "launchTemplate"' });
    }
    for (const type of options.instanceTypes) {
      if (!options.prices[type]) context.addIssue({ code: 'custom', path: ['prices', type], message: `needs a price for instance type ${type}` });
    }
  });

export type Ec2Options = z.output<typeof ec2OptionsSchema>;
