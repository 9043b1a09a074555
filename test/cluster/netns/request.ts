import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { netnsOptionsSchema } from '../../../src/cluster/netns/options.js';
import type { ClusterRequest } from '../../../src/cluster/types.js';
import { loadSuite } from '../../../src/suite/suite.js';

export const daskSuite = loadSuite('dask');

/** Two workers with the Dask suite's own process templates, in a fresh work folder. */
export function netnsRequest(options: unknown): ClusterRequest {
  return {
    shape: { workers: 2, threadsPerWorker: 1, memoryPerWorker: 2 ** 30 },
    scheduler: daskSuite.file.processes.scheduler,
    worker: daskSuite.file.processes.worker,
    placeholders: daskSuite.placeholders,
    env: {},
    workdir: mkdtempSync(path.join(tmpdir(), 'nb-netns-')),
    startTimeoutSeconds: 60,
    options: netnsOptionsSchema.parse(options),
    runId: 'netns-e2e',
  };
}
