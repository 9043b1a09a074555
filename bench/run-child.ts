/**
 * `nightbench run` in a child process, for the benches that compare runs of several configs.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../bin/nightbench.js', import.meta.url));

/** Runs `config` (only `workloads`, when given) and returns the id of the run it recorded; says on stderr how it ended and how long it took. */
export function runConfig(config: string, workloads: readonly string[], label: string): string {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'run', '--config', config, '--json', '--quiet', ...workloads.flatMap((w) => ['--workload', w])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (!result.stdout.trim()) throw new Error(`${label}: nightbench run printed no report (exit ${result.status})`);
  const report = JSON.parse(result.stdout) as { runs: { runId: string; status: string }[] };
  process.stderr.write(`${label}: ${report.runs[0]!.status} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return report.runs[0]!.runId;
}
