import path from 'node:path';
import { repoRoot } from './cli.js';

/**
 * A config that tests the `tinytarget` package of a throw-away repository with the tiny suite's
 * `target_work` workload (it imports the package from the checkout on PYTHONPATH).
 */
export function tinyTargetConfig(upstreamDir: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    target: {
      kind: 'git',
      name: 'tinytarget',
      repositories: [{ name: 'tinytarget', url: upstreamDir, branch: 'main' }],
      setup: { env: { PYTHONPATH: '{checkout:tinytarget}' } },
    },
    suites: [path.join(repoRoot, 'test/fixtures/suites/tiny')],
    workloads: ['target_work'],
    cluster: { workers: 2, memoryPerWorker: '1GiB' },
    ...overrides,
  };
}
