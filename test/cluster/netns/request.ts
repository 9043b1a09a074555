import { netnsOptionsSchema } from '../../../src/cluster/netns/options.js';
import type { ClusterRequest } from '../../../src/cluster/types.js';
import { loadSuite } from '../../../src/suite/suite.js';
import { tempDir } from '../../helpers/temp-dir.js';

export const daskSuite = loadSuite('dask');

/** Two workers with the Dask suite's own process templates, in `workdir` (by default a fresh temporary folder of the test). */
export function netnsRequest(options: unknown, workdir = tempDir('nb-netns-')): ClusterRequest {
  return {
    shape: { workers: 2, threadsPerWorker: 1, memoryPerWorker: 2 ** 30 },
    scheduler: daskSuite.file.processes.scheduler,
    worker: daskSuite.file.processes.worker,
    placeholders: daskSuite.placeholders,
    env: {},
    workdir,
    startTimeoutSeconds: 60,
    options: netnsOptionsSchema.parse(options),
    runId: 'netns-e2e',
  };
}
