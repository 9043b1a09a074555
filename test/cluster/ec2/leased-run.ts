import { DescribeInstancesCommand, type EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ec2Options } from '../../../src/cluster/ec2/options.js';
import { tagKeys } from '../../../src/cluster/ec2/plan.js';
import type { ClusterRequest } from '../../../src/cluster/types.js';
import type { RepeatRecord } from '../../../src/history/types.js';
import type { RunPlan } from '../../../src/runner/runner.js';
import type { Workload } from '../../../src/suite/schema.js';
import { loadSuite, type Suite } from '../../../src/suite/suite.js';
import { ec2Request } from './request.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A suite whose workloads are a client command of `seconds` here; its processes only go to the
 * (fake) agents. While the file `failWhile` exists the workload fails, as one whose worker vanished would.
 */
export function sleepySuite(options: Ec2Options, seconds = 1.5, failWhile?: string): Suite {
  const dir = tempDir('nb-sleepy-');
  const request = ec2Request(options, { workdir: dir });
  writeFileSync(
    path.join(dir, 'suite.json'),
    JSON.stringify({
      name: 'sleepy',
      list: ['true'],
      ready: ['true'],
      reset: ['true'],
      run: ['sh', '-c', `sleep ${seconds}; ${failWhile ? `test ! -e '${failWhile}' || { echo 'KilledWorker: the worker vanished' >&2; exit 1; }; ` : ''}echo '{"metrics": {}}' > "$NIGHTBENCH_METRICS_FILE"`],
      processes: { scheduler: request.scheduler, worker: request.worker },
    }),
  );
  return loadSuite(dir);
}

export const workload = (name: string): Workload => ({ name, description: '', version: '1', tags: [], metrics: [] });

/** What runSuite needs for `workloads` of the sleepy suite on EC2, repeats `first`.. on. */
export function sleepyPlan(suite: Suite, options: Ec2Options, runId: string, workloads: string[], repeats: { first?: number; count: number }, overrides: Partial<ClusterRequest> = {}): RunPlan {
  const request = ec2Request(options, { runId, ...overrides });
  return {
    runId,
    suite,
    workloads: workloads.map(workload),
    repeats: repeats.count,
    firstRepeat: repeats.first,
    timeLimitSeconds: 60,
    scale: 1,
    sampleIntervalSeconds: 0.25,
    cluster: { ...request, scheduler: suite.file.processes.scheduler, worker: suite.file.processes.worker },
    workdir: request.workdir,
  };
}

export type TaggedInstance = Instance & { reservation: string; role: string };

export async function instancesOfRun(client: EC2Client, runId: string): Promise<TaggedInstance[]> {
  const answer = await client.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:${tagKeys.run}`, Values: [runId] }] }));
  return (answer.Reservations ?? []).flatMap((r) =>
    (r.Instances ?? []).map((i) => ({ ...i, reservation: r.ReservationId!, role: i.Tags?.find((t) => t.Key === tagKeys.role)?.Value ?? '' })),
  );
}

/** RunInstances calls per role: each call is one reservation. */
export const launchesByRole = (instances: { reservation: string; role: string }[]) =>
  Object.fromEntries(['scheduler', 'worker'].map((role) => [role, new Set(instances.filter((i) => i.role === role).map((i) => i.reservation)).size]));
export const allTerminated = (instances: Instance[]) => instances.every((i) => i.State?.Name === 'terminated' || i.State?.Name === 'shutting-down');
export const outcomes = (records: RepeatRecord[]) => records.map((r) => `${r.workload}#${r.repeat}:${r.status}`);
