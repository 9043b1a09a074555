import path from 'node:path';
import { createScratchRepo, type ScratchRepo } from '../git/scratch-repo.js';
import { repoRoot } from './cli.js';

/** The two throw-away repositories of the cheap suite (like dask and distributed), removed as temporary folders are (test/helpers/temp-dir.ts). */
export interface CheapTarget {
  a: ScratchRepo;
  b: ScratchRepo;
}

export const cheapa = (cost: number, broken = false) => `COST = ${cost}\nBROKEN = ${broken ? 'True' : 'False'}\n`;
export const cheapb = (extra: number) => `EXTRA = ${extra}\n`;

export function createCheapTarget(): CheapTarget {
  const a = createScratchRepo('nb-cheapa-');
  const b = createScratchRepo('nb-cheapb-');
  return { a, b };
}

/** A config that tests both repositories with the cheap suite's `work` workload (no Dask, sub-second repeats). */
export function cheapTargetConfig(target: CheapTarget, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    target: {
      kind: 'git',
      name: 'cheap',
      repositories: [
        { name: 'cheapa', url: target.a.dir, branch: 'main' },
        { name: 'cheapb', url: target.b.dir, branch: 'main' },
      ],
      setup: { env: { PYTHONPATH: '{checkout:cheapa}:{checkout:cheapb}' } },
    },
    suites: [path.join(repoRoot, 'test/fixtures/suites/cheap')],
    workloads: ['work'],
    cluster: { workers: 1, memoryPerWorker: '1GiB' },
    ...overrides,
  };
}

/**
 * The cheap target judged and reported: three repeats a night, a loose short-baseline detection
 * of the work time alone, and issues on the fake GitHub at `apiUrl` (acme/perf, the target's
 * repositories as acme/cheapa and acme/cheapb). The other metrics get a threshold of 1000%: the
 * repeat's wall time also holds the harness's start, which a loaded machine moves about as much
 * as a planted slowdown, and with a suspect range of its own (widened over an uncertain night) it
 * made a second issue for one slowdown under load (night-cutoff.e2e, then pipeline.e2e).
 */
export function cheapIssuesConfig(target: CheapTarget, apiUrl: string): Record<string, unknown> {
  return {
    ...cheapTargetConfig(target),
    repeats: 3,
    detection: { minBaselineNights: 2, alpha: 0.05, noiseMultiple: 2, thresholds: ['wall_time', 'cpu_time', 'peak_memory', 'average_memory'].map((metric) => ({ metric, threshold: 10 })) },
    github: { repository: 'acme/perf', apiUrl, targetRepositories: { cheapa: 'acme/cheapa', cheapb: 'acme/cheapb' }, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 },
  };
}
