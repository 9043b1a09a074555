import { ec2OptionsSchema, type Ec2Options } from '../../../src/cluster/ec2/options.js';

/** Valid ec2 options for tests; ids are moto's or made up, never real resources. */
export function ec2Options(overrides: Record<string, unknown> = {}): Ec2Options {
  return ec2OptionsSchema.parse({
    region: 'us-east-1',
    repository: 'acme/nightbench',
    ami: 'ami-03cf127a',
    instanceTypes: ['m5.large', 'm5a.large'],
    subnets: ['subnet-0a', 'subnet-0b'],
    securityGroups: ['sg-0c'],
    prices: { 'm5.large': { onDemand: 0.096, spot: 0.04 }, 'm5a.large': { onDemand: 0.086 } },
    setup: 'pip install "git+https://example.invalid/dask@{commit}"',
    backoffSeconds: 0.5,
    ...overrides,
  });
}
