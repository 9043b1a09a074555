import { cpus, release } from 'node:os';
import { describe, expect, it } from 'vitest';
import { describeMachine, instanceMachineClass, machineClass } from '../../src/detect/machine-class.js';
import { readMachineFacts } from '../../src/runner/machine.js';

describe('the machine facts a run records', () => {
  it('are this machine\'s CPU, cores, memory and kernel, without runner fields outside GitHub Actions', () => {
    const facts = readMachineFacts({});
    expect(facts).toEqual({ cpuModel: cpus()[0]!.model, cores: cpus().length, memory: expect.any(Number), kernel: release() });
    expect(facts.memory).toBeGreaterThan(2 ** 26);
  });

  it('name the hosted runner\'s image, its version, the runner and its environment from the variables GitHub sets', () => {
    const facts = readMachineFacts({ ImageOS: 'ubuntu22', ImageVersion: '20240922.1.0', RUNNER_NAME: 'GitHub Actions 12', RUNNER_ENVIRONMENT: 'github-hosted', RUNNER_OS: 'Linux' });
    expect(facts).toMatchObject({ runnerImage: 'ubuntu22', runnerImageVersion: '20240922.1.0', runnerName: 'GitHub Actions 12', runnerEnvironment: 'github-hosted' });
  });
});

describe('the machine class', () => {
  const base = { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, memory: 16 * 2 ** 30 };

  it.each([
    ['a few MiB less memory (the same VM size)', { memory: 16 * 2 ** 30 - 300 * 2 ** 20 }, true],
    ['another kernel or runner image', { kernel: '6.8.0', runnerImage: 'ubuntu24' }, true],
    ['extra spaces in the CPU model', { cpuModel: 'AMD  EPYC 7763 64-Core Processor ' }, true],
    ['another CPU model', { cpuModel: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz' }, false],
    ['other cores', { cores: 2 }, false],
    ['double the memory', { memory: 32 * 2 ** 30 }, false],
  ])('with %s is %s the same', (_what, change, same) => {
    expect(machineClass({ ...base, ...change }) === machineClass(base)).toBe(same);
  });

  it('reads as CPU, cores and memory; an EC2 cluster is classed by its instance type', () => {
    expect(machineClass(base)).toBe('AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB');
    expect(instanceMachineClass('m6i.large')).toBe('instance m6i.large');
    expect(describeMachine({ ...base, kernel: '6.5.0', runnerImage: 'ubuntu22', runnerImageVersion: '20240922.1.0' }, machineClass(base))).toBe('AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB, runner image ubuntu22 20240922.1.0, kernel 6.5.0');
  });
});
