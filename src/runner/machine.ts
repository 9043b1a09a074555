/**
 * Reads the facts of the machine a run runs on (src/detect/machine-class.ts says what they are
 * for): the CPU, cores, memory and kernel from the operating system, and on a GitHub-hosted
 * runner the variables GitHub sets on every job (ImageOS, ImageVersion, RUNNER_NAME, RUNNER_ENVIRONMENT).
 *
 * @module
 */
import { cpus, release, totalmem } from 'node:os';
import type { MachineFacts } from '../detect/machine-class.js';

export function readMachineFacts(env: NodeJS.ProcessEnv = process.env): MachineFacts {
  const processors = cpus();
  const variable = (name: string) => (env[name] ? env[name] : undefined);
  const runner = {
    runnerImage: variable('ImageOS'),
    runnerImageVersion: variable('ImageVersion'),
    runnerName: variable('RUNNER_NAME'),
    runnerEnvironment: variable('RUNNER_ENVIRONMENT'),
  };
  return {
    cpuModel: processors[0]?.model ?? 'unknown CPU',
    cores: processors.length,
    memory: totalmem(),
    kernel: release(),
    ...Object.fromEntries(Object.entries(runner).filter(([, value]) => value !== undefined)),
  };
}
