import { describe, expect, it } from 'vitest';
import { ec2OptionsSchema } from '../../../src/cluster/ec2/options.js';
import {
  backoffMs,
  estimateCostUsd,
  expiryOf,
  instanceTags,
  instanceValues,
  launchSlots,
  planReap,
  renderUserData,
  runInstancesInput,
  shellWord,
  tagKeys,
} from '../../../src/cluster/ec2/plan.js';
import { validate } from '../../../src/validation.js';
import { ec2Options } from './options.js';

describe('launchSlots', () => {
  it('tries each instance type in every subnet, spot first, then the same on demand', () => {
    const slots = launchSlots(ec2Options()).map((s) => `${s.market} ${s.instanceType} ${s.subnetId}`);
    expect(slots).toEqual([
      'spot m5.large subnet-0a',
      'spot m5.large subnet-0b',
      'spot m5a.large subnet-0a',
      'spot m5a.large subnet-0b',
      'on-demand m5.large subnet-0a',
      'on-demand m5.large subnet-0b',
      'on-demand m5a.large subnet-0a',
      'on-demand m5a.large subnet-0b',
    ]);
  });

  it('never asks for spot when on-demand is configured', () => {
    expect(launchSlots(ec2Options({ market: 'on-demand' })).every((s) => s.market === 'on-demand')).toBe(true);
  });
});

describe('options', () => {
  it.each([
    { what: 'neither ami nor launch template', change: { ami: undefined }, error: /ami: needs exactly one of "ami" and "launchTemplate"/ },
    { what: 'both ami and launch template', change: { launchTemplate: { id: 'lt-0123' } }, error: /ami: needs exactly one/ },
    { what: 'an instance type without price', change: { instanceTypes: ['c7g.large'] }, error: /prices\.c7g\.large: needs a price for instance type c7g\.large/ },
    { what: 'a bad subnet id', change: { subnets: ['vpc-1'] }, error: /subnets\.0: must be a subnet id/ },
    { what: 'an unknown key', change: { instanceType: 'm5.large' }, error: /unknown key "instanceType"/ },
  ])('rejects $what, naming the key', ({ change, error }) => {
    const raw = { ...ec2Options(), ...change };
    expect(() => validate(ec2OptionsSchema, raw, 'cluster.options')).toThrow(error);
  });
});

describe('user-data', () => {
  it('quotes arguments for sh and turns the instance stand-ins into variables', () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord(`tcp://${instanceValues.host}:8786`)).toBe(`'tcp://'"$NIGHTBENCH_HOST"':8786'`);
    expect(shellWord(instanceValues.name)).toBe('"$NIGHTBENCH_NAME"');
  });

  it('schedules its own shutdown, exports the environment, installs the target, then becomes the process', () => {
    const script = renderUserData({
      role: 'worker',
      runId: 'r1',
      argv: ['/usr/bin/python3', '-m', 'distributed.cli.dask_worker', 'tcp://10.0.0.5:8786', '--name', instanceValues.name],
      env: { DASK_X: 'a b' },
      setup: 'pip install dask==1\n',
      ttlMinutes: 90,
    });
    expect(script).toBe(
      [
        '#!/bin/bash',
        '# nightbench worker of run r1',
        'set -euo pipefail',
        'shutdown -h +90 || true',
        `export NIGHTBENCH_HOST="$(hostname -I | awk '{print $1}')"`,
        'export NIGHTBENCH_NAME="worker-$(hostname)"',
        "export DASK_X='a b'",
        'mkdir -p /var/lib/nightbench && cd /var/lib/nightbench',
        'pip install dask==1',
        `exec '/usr/bin/python3' '-m' 'distributed.cli.dask_worker' 'tcp://10.0.0.5:8786' '--name' "$NIGHTBENCH_NAME" >>/var/log/nightbench-worker.log 2>&1`,
        '',
      ].join('\n'),
    );
  });
});

describe('runInstancesInput', () => {
  const now = new Date('2026-12-02T01:00:00Z');
  const tags = instanceTags({ runId: 'run-7', repository: 'acme/nightbench', role: 'scheduler', expiresAt: expiryOf(now, 180) });

  it('tags every instance and volume with the run, expiry, repository and role', () => {
    expect(tags).toEqual([
      { Key: 'Name', Value: 'nightbench-scheduler-run-7' },
      { Key: tagKeys.run, Value: 'run-7' },
      { Key: tagKeys.expiresAt, Value: '2026-12-02T04:00:00.000Z' },
      { Key: tagKeys.repository, Value: 'acme/nightbench' },
      { Key: tagKeys.role, Value: 'scheduler' },
    ]);
  });

  it('asks for all instances or none, on spot that terminates, shutting down into termination', () => {
    const input = runInstancesInput({
      options: ec2Options({ iamInstanceProfile: 'nightbench-node' }),
      slot: { instanceType: 'm5.large', subnetId: 'subnet-0b', market: 'spot' },
      role: 'scheduler',
      count: 3,
      userData: '#!/bin/bash\n',
      tags,
      clientToken: 'x'.repeat(80),
    });
    expect(input).toEqual({
      MinCount: 3,
      MaxCount: 3,
      InstanceType: 'm5.large',
      SubnetId: 'subnet-0b',
      SecurityGroupIds: ['sg-0c'],
      ImageId: 'ami-03cf127a',
      UserData: Buffer.from('#!/bin/bash\n').toString('base64'),
      InstanceInitiatedShutdownBehavior: 'terminate',
      InstanceMarketOptions: { MarketType: 'spot', SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' } },
      IamInstanceProfile: { Name: 'nightbench-node' },
      TagSpecifications: [
        { ResourceType: 'instance', Tags: tags },
        { ResourceType: 'volume', Tags: tags },
      ],
      ClientToken: 'x'.repeat(64),
    });
  });

  it('uses a launch template instead of an AMI, and no market options on demand', () => {
    const input = runInstancesInput({
      options: ec2Options({ ami: undefined, launchTemplate: { name: 'nightbench' } }),
      slot: { instanceType: 'm5a.large', subnetId: 'subnet-0a', market: 'on-demand' },
      role: 'worker',
      count: 1,
      userData: '',
      tags,
      clientToken: 't',
    });
    expect(input.LaunchTemplate).toEqual({ LaunchTemplateName: 'nightbench', Version: '$Default' });
    expect(input.ImageId).toBeUndefined();
    expect(input.InstanceMarketOptions).toBeUndefined();
  });
});

describe('cost and backoff', () => {
  it('bills each group per second at its market price, spot without a price at on-demand', () => {
    const prices = ec2Options().prices;
    const cost = estimateCostUsd(
      [
        { instanceType: 'm5.large', market: 'spot', count: 4 },
        { instanceType: 'm5a.large', market: 'spot', count: 1 },
        { instanceType: 'm5.large', market: 'on-demand', count: 1 },
      ],
      1800,
      prices,
    );
    expect(cost).toBeCloseTo((4 * 0.04 + 0.086 + 0.096) / 2, 10);
  });

  it('doubles the wait after each capacity error, up to a minute', () => {
    expect([0, 1, 2, 10].map((n) => backoffMs(n, 2))).toEqual([2000, 4000, 8000, 60_000]);
  });
});

describe('planReap', () => {
  const now = new Date('2026-12-02T12:00:00Z');
  const instance = (instanceId: string, repository: string, expiresAt: string, state = 'running') => ({
    instanceId,
    state,
    tags: { [tagKeys.repository]: repository, [tagKeys.expiresAt]: expiresAt },
  });

  it('ends only expired instances of this repository, and leaves unreadable expiries alone', () => {
    const plan = planReap(
      [
        instance('i-expired', 'acme/nightbench', '2026-12-02T11:59:59Z'),
        instance('i-alive', 'acme/nightbench', '2026-12-02T12:00:01Z'),
        instance('i-other-repo', 'someone/else', '2020-01-01T00:00:00Z'),
        instance('i-bad-tag', 'acme/nightbench', 'tomorrow'),
        instance('i-gone', 'acme/nightbench', '2020-01-01T00:00:00Z', 'shutting-down'),
      ],
      'acme/nightbench',
      now,
    );
    expect(plan.terminate.map((i) => i.instanceId)).toEqual(['i-expired']);
    expect(plan.alive.map((i) => i.instanceId)).toEqual(['i-alive']);
    expect(plan.unreadable.map((i) => i.instanceId)).toEqual(['i-bad-tag']);
  });
});
