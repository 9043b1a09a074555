/**
 * The runner's overhead: one Dask workload's wall time run bare (the suite's own command, nothing
 * watching) against the same command under the runner's /proc sampler, interleaved on one cluster;
 * and the sampler's own CPU cost as a share of one core.
 *   npx tsx bench/runner-overhead.ts [workload] [pairs]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { localProvider } from '../src/cluster/local.js';
import { fillTemplate } from '../src/cluster/types.js';
import { stderrLog } from '../src/log.js';
import { ownCpuSeconds } from '../src/runner/proc.js';
import { Sampler } from '../src/runner/sampler.js';
import { loadSuite } from '../src/suite/suite.js';

const workload = process.argv[2] ?? 'array_reduction';
const pairs = Number(process.argv[3] ?? 5);
const suite = loadSuite('dask');
const workdir = mkdtempSync(path.join(tmpdir(), 'nb-bench-overhead-'));
const shape = { workers: 2, threadsPerWorker: 1, memoryPerWorker: 2 ** 30 };
const cluster = await localProvider.start(
  { shape, scheduler: suite.file.processes.scheduler, worker: suite.file.processes.worker, placeholders: suite.placeholders, env: {}, workdir, startTimeoutSeconds: 120, options: {}, runId: 'bench' },
  stderrLog(),
);
const env = {
  NIGHTBENCH_SCHEDULER_ADDRESS: cluster.schedulerAddress,
  NIGHTBENCH_WORKERS: '2',
  NIGHTBENCH_THREADS_PER_WORKER: '1',
  NIGHTBENCH_MEMORY_PER_WORKER: String(shape.memoryPerWorker),
  NIGHTBENCH_TOTAL_MEMORY: String(2 * shape.memoryPerWorker),
  NIGHTBENCH_SCALE: '0.3',
  NIGHTBENCH_TIME_LIMIT: '600',
  NIGHTBENCH_METRICS_FILE: path.join(workdir, 'metrics.json'),
  NIGHTBENCH_WORKDIR: workdir,
  NIGHTBENCH_REPEAT: '1',
};
const command = (step: 'run' | 'ready') => ({ argv: fillTemplate(suite.file[step], { ...suite.placeholders, workload }), env, cwd: suite.dir, timeoutMs: 600_000 });

try {
  await cluster.runCommand(command('ready'));
  const bare: number[] = [];
  const sampled: number[] = [];
  let bareCpu = 0;
  let bareSeconds = 0;
  let samplerCpu = 0;
  let samplerSeconds = 0;
  let ticks = 0;
  for (let i = 0; i < pairs; i++) {
    const bareCpu0 = ownCpuSeconds();
    const t0 = performance.now();
    await cluster.runCommand(command('run'));
    bare.push((performance.now() - t0) / 1000);
    bareSeconds += bare.at(-1)!;
    bareCpu += ownCpuSeconds() - bareCpu0;

    const sampler = new Sampler(() => cluster.sampleTargets(), 250);
    const cpu0 = ownCpuSeconds();
    const t1 = performance.now();
    sampler.start();
    await cluster.runCommand(command('run'));
    ticks += sampler.stop().ticks;
    const elapsed = (performance.now() - t1) / 1000;
    sampled.push(elapsed);
    samplerSeconds += elapsed;
    samplerCpu += ownCpuSeconds() - cpu0;
    console.error(`pair ${i + 1}/${pairs}: bare ${bare.at(-1)!.toFixed(2)} s, sampled ${elapsed.toFixed(2)} s`);
  }
  const ratio = median(sampled) / median(bare);
  console.log(`workload ${workload} at scale 0.3 on 2 workers x 1 GiB, ${pairs} interleaved pairs`);
  console.log(`  bare median ${median(bare).toFixed(2)} s, under the sampler median ${median(sampled).toFixed(2)} s, ratio ${ratio.toFixed(3)}`);
  // This process's CPU with the sampler, less its CPU running the same command without it
  // (spawning and reading the child cost the same in both): what the sampler itself costs.
  const share = samplerCpu / samplerSeconds - bareCpu / bareSeconds;
  console.log(`  sampler at 4 Hz over ${cluster.sampleTargets().length} process trees: ${ticks} ticks; runner process CPU ${((samplerCpu / samplerSeconds) * 100).toFixed(2)}% of a core with it, ${((bareCpu / bareSeconds) * 100).toFixed(2)}% without: the sampler costs ${(share * 100).toFixed(2)}% of one core (${((samplerCpu - (bareCpu / bareSeconds) * samplerSeconds) / ticks * 1000).toFixed(2)} ms a tick)`);
} finally {
  await cluster.stop();
}
