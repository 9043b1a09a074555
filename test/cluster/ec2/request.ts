import type { Ec2Options } from '../../../src/cluster/ec2/options.js';
import type { ClusterRequest } from '../../../src/cluster/types.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A cluster request shaped like the Dask suite's, for providers that never start it here; its work folder, unless `overrides` gives one, is a fresh temporary folder of the test. */
export function ec2Request(options: Ec2Options, overrides: Partial<ClusterRequest> = {}): ClusterRequest {
  return {
    shape: { workers: 2, threadsPerWorker: 2, memoryPerWorker: 2 ** 30 },
    scheduler: { command: ['{python}', '-m', 'distributed.cli.dask_scheduler', '--host', '{host}', '--port', '{port}'], address: 'tcp://{host}:{port}' },
    worker: {
      command: ['{python}', '-m', 'distributed.cli.dask_worker', '{scheduler_address}', '--name', '{name}', '--nthreads', '{threads}', '--memory-limit', '{memory_limit}', '--local-directory', '{workdir}'],
    },
    placeholders: { python: '/usr/bin/python3', suite_dir: '/opt/nightbench/workloads/dask', commit: 'abc123' },
    env: { DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION: '1.1' },
    startTimeoutSeconds: 30,
    options,
    runId: 'run-1',
    ...overrides,
    workdir: overrides.workdir ?? tempDir('nb-ec2-'),
  };
}
