/**
 * The soak's shard on EC2 (moto) whose worker host is reclaimed under its first repeat. It runs
 * what `nightly --no-detect` runs (prepareExecution, then executeRuns into the shard's database)
 * in this process, because moto's instances are data only: their agents are the fake one here,
 * which a CLI in another process could not reach. The workload fails while the host is gone.
 */
import { TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { rmSync, writeFileSync } from 'node:fs';
import { createEc2Provider } from '../../src/cluster/ec2/provider.js';
import { loadConfig } from '../../src/config/load.js';
import { openHistory } from '../../src/history/open.js';
import { silentLog } from '../../src/log.js';
import { executeRuns, prepareExecution, type RunReport } from '../../src/runner/execute.js';
import { fakeAgent } from '../cluster/ec2/fake-agent.js';
import { motoResources, type Moto } from '../cluster/ec2/moto.js';

/** The `cluster` section of a config on moto: one t3.micro worker, spot with on-demand fallback. */
export async function motoCluster(moto: Moto): Promise<Record<string, unknown>> {
  const client = moto.client();
  try {
    const { ami, subnets, securityGroup } = await motoResources(client);
    const options = { region: 'us-east-1', repository: 'acme/perf', ami, instanceTypes: ['t3.micro'], subnets: subnets.slice(0, 1), securityGroups: [securityGroup], prices: { 't3.micro': { onDemand: 0.0104 } }, setup: 'install cheapa@{commit:cheapa}' };
    return { provider: 'ec2', workers: 1, memoryPerWorker: '1GiB', options };
  } finally {
    client.destroy();
  }
}

export interface ReclaimedShard {
  reports: RunReport[];
  /** The worker host EC2 took back. */
  reclaimed: string;
}

/**
 * Runs the night's shard into `db` with the config at `configFile` (an ec2 cluster on `moto`,
 * whose setup env sets CHEAP_FAIL_WHILE to `vanishedFile`): the first worker host is terminated
 * as soon as its worker starts, and the workload fails until a replacement host runs it.
 */
export async function runReclaimedShard(moto: Moto, configFile: string, db: string, night: string, vanishedFile: string): Promise<ReclaimedShard> {
  const agent = fakeAgent();
  const control = moto.client();
  let reclaimed = '';
  agent.onStart = (call) => {
    if (call.name === 'scheduler' && reclaimed) rmSync(vanishedFile, { force: true });
    if (call.name !== 'worker-1' || reclaimed) return;
    reclaimed = call.instanceId;
    writeFileSync(vanishedFile, '');
    void control.send(new TerminateInstancesCommand({ InstanceIds: [reclaimed] }));
  };
  const provider = createEc2Provider({ createClient: () => moto.client(), probe: async () => {}, sleep: async () => {}, agent: () => agent, monitorIntervalMs: 100 });
  const loaded = loadConfig({ file: configFile });
  const store = openHistory(db);
  try {
    const prepared = await prepareExecution(loaded, silentLog, { night, provider });
    const reports = await executeRuns(loaded, store, silentLog, { kind: 'nightly', night, prepared });
    return { reports, reclaimed };
  } finally {
    store.close();
    control.destroy();
    rmSync(vanishedFile, { force: true });
  }
}
