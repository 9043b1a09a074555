import { z } from 'zod';
import type { Log } from '../log.js';
import { startProcessCluster, type ProcessHost } from './process-cluster.js';
import type { Cluster, ClusterProvider, ClusterRequest } from './types.js';

const localhost: ProcessHost = { name: 'localhost', address: '127.0.0.1', prefix: [] };

/** The embedded default: a scheduler and workers as processes on this machine, on 127.0.0.1. */
export const localProvider: ClusterProvider = {
  name: 'local',
  description: 'scheduler and workers as processes on this machine (127.0.0.1)',
  optionsSchema: z.strictObject({}),
  start(request: ClusterRequest, log: Log): Promise<Cluster> {
    return startProcessCluster(request, { provider: 'local', schedulerHost: localhost, workerHosts: [localhost], clientHost: localhost }, log);
  },
};
