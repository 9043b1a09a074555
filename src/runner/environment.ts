import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { formatSize } from '../config/units.js';
import type { ClusterShape } from '../cluster/types.js';

export interface EnvironmentIdentity {
  name: string;
  fingerprint: string;
  facts: Record<string, unknown>;
}

/**
 * What must match for two values to be compared, besides the cluster: the environment's name and
 * variables, the interpreter and the data scale. Target versions are what is being tested, so they
 * stay out of it.
 */
export async function identifyEnvironment(input: { name: string; variables: Record<string, string>; python: string; scale: number }): Promise<EnvironmentIdentity> {
  const interpreter = await interpreterVersion(input.python);
  const facts = { name: input.name, variables: sortKeys(input.variables), python: interpreter, scale: input.scale };
  const fingerprint = createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16);
  return { name: input.name, fingerprint, facts };
}

/** The comparable key of a cluster shape: provider, workers x threads, memory per worker. */
export function clusterShapeKey(provider: string, shape: ClusterShape): string {
  return `${provider}:${shape.workers}x${shape.threadsPerWorker}:${formatSize(shape.memoryPerWorker)}`;
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

function interpreterVersion(python: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import sys; print(sys.version.split()[0])'], (error, stdout) => resolve(error ? 'unknown' : stdout.trim()));
  });
}
