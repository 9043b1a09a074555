import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBisect } from '../../src/bisect/run.js';
import { tagKeys } from '../../src/cluster/ec2/plan.js';
import { createEc2Provider } from '../../src/cluster/ec2/provider.js';
import { loadConfig } from '../../src/config/load.js';
import { openHistory } from '../../src/history/open.js';
import { silentLog } from '../../src/log.js';
import { fakeAgent } from '../cluster/ec2/fake-agent.js';
import { allTerminated, launchesByRole } from '../cluster/ec2/leased-run.js';
import { motoResources, startMoto, type Moto } from '../cluster/ec2/moto.js';
import { cheapa, cheapb, cheapTargetConfig, createCheapTarget, type CheapTarget } from '../helpers/cheap-target.js';
import { tempDir } from '../helpers/temp-dir.js';

let moto: Moto;
let client: EC2Client;
let target: CheapTarget;
let dir: string;

beforeAll(async () => {
  moto = await startMoto();
  client = moto.client();
  target = createCheapTarget();
  dir = tempDir('nb-bisect-ec2-');
});

afterAll(async () => {
  client?.destroy();
  await moto?.stop();
});

describe('a bisect on EC2 (against a local EC2 endpoint)', () => {
  it('leases hosts once per state it measures, not once per repeat, and terminates them all', async () => {
    const ada = { name: 'Ada', email: 'ada@example.invalid' };
    const good = target.a.commit({ 'cheapa.py': cheapa(0.05) }, 'Add cheapa', ada, '2026-11-01T10:00:00Z');
    const b = target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-11-01T09:00:00Z');
    target.a.commit({ 'README.md': 'cheapa\n' }, 'Describe cheapa', ada, '2026-11-02T10:00:00Z');
    target.a.commit({ 'cheapa.py': cheapa(0.5) }, 'Be thorough', ada, '2026-11-02T11:00:00Z');
    const bad = target.a.commit({ 'NOTES.md': 'notes\n' }, 'Notes', ada, '2026-11-02T12:00:00Z');

    const { ami, subnets, securityGroup } = await motoResources(client);
    const options = { region: 'us-east-1', repository: 'acme/cheap', ami, instanceTypes: ['t3.micro'], subnets: subnets.slice(0, 1), securityGroups: [securityGroup], prices: { 't3.micro': { onDemand: 0.0104 } }, setup: 'install cheapa@{commit:cheapa}' };
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(cheapTargetConfig(target, { cluster: { provider: 'ec2', workers: 1, memoryPerWorker: '1GiB', options }, workdir: 'work' })));
    const store = openHistory(path.join(dir, 'history.sqlite'));
    const provider = createEc2Provider({ createClient: () => moto.client(), probe: async () => {}, sleep: async () => {}, agent: () => fakeAgent(), monitorIntervalMs: 3600_000 });
    try {
      // Judged on the suite's own work_time (a seeded sleep), not the runner's wall_time: this test is
      // about leases, and a loaded machine's interpreter start-up in wall_time once made it "spread".
      const report = await runBisect(
        loadConfig({ file }),
        store,
        silentLog,
        { mode: 'bisect', judged: 'metric', workload: 'work', metric: 'work_time', good: { cheapa: good, cheapb: b }, bad: { cheapa: bad, cheapb: b }, priorNoise: 0.1, seed: 1 },
        { provider },
      );
      // The culprit ("Be thorough", state 2), or under a loaded machine's noise a spread that holds it.
      const outcome = report.result.outcome;
      if (outcome.kind === 'spread') expect([outcome.from <= 2, outcome.to >= 2]).toEqual([true, true]);
      else expect(outcome).toEqual({ kind: 'culprit', state: 2 });

      const rows = store.runs.resultRows({ kind: 'bisect' });
      const repeatsOf = (runId: string) => new Set(rows.filter((r) => r.runId === runId && r.metric === 'work_time').map((r) => r.repeat)).size;
      const commitOf = (runId: string) => rows.find((r) => r.runId === runId)!.commits.cheapa;
      const runIds = [...new Set(rows.map((r) => r.runId))];
      const answer = await client.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:${tagKeys.repository}`, Values: ['acme/cheap'] }] }));
      const instances = (answer.Reservations ?? []).flatMap((r) =>
        (r.Instances ?? []).map((i) => ({ ...i, reservation: r.ReservationId!, role: i.Tags?.find((t) => t.Key === tagKeys.role)?.Value ?? '', run: i.Tags?.find((t) => t.Key === tagKeys.run)?.Value })),
      );
      expect(allTerminated(instances)).toBe(true);
      // The good and bad ends, measured beside every candidate, keep the hosts they leased first.
      for (const end of [good, bad]) {
        const runId = runIds.find((id) => commitOf(id) === end)!;
        expect(repeatsOf(runId)).toBeGreaterThan(2);
        expect(launchesByRole(instances.filter((i) => i.run === runId))).toEqual({ scheduler: 1, worker: 1 });
      }
      // Every state's run: hosts leased for it alone (at most twice: a candidate given up and measured again to confirm), far fewer than its repeats.
      const repeats = runIds.reduce((sum, id) => sum + repeatsOf(id), 0);
      const launches = new Set(instances.filter((i) => i.role === 'scheduler').map((i) => i.reservation)).size;
      expect(new Set(instances.map((i) => i.run))).toEqual(new Set(runIds));
      for (const runId of runIds) expect(launchesByRole(instances.filter((i) => i.run === runId)).scheduler).toBeLessThanOrEqual(2);
      expect(launches).toBeLessThan(repeats / 2);
    } finally {
      store.close();
    }
  });
});
