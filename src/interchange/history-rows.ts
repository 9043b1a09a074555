/**
 * How another tool's runs sit in nightbench's history. Pure.
 * - Kind `nightly`, so detection, replay and the pages read them as they read recorded nights.
 * - The night is the commit's UTC date; a run starts at its commit's time. Several commits on one
 *   date are several runs of that night, and a series reads the latest run of a night, so the
 *   night's point is the date's last commit: what a nightly run after that date would have
 *   tested. The earlier commits of the date stay in the history as runs of their own.
 * - Provider is the format, and the cluster shape is `<format>:<machine>`: values from different
 *   machines (asv's machine folders) or environments are never compared with each other.
 * - Run ids are derived from what identifies the run in the tool (format, suite, machine,
 *   environment, commit), so importing the same data again finds its runs already there.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { DeclaredDirection } from '../history/regression-queries.js';
import type { ImportRunRow, ImportedWorkloadValues } from '../history/import-queries.js';
import type { TupleMap } from './tuple-map.js';
import type { ImportedRun, InterchangeFormat } from './types.js';

export interface ImportPlacement {
  format: InterchangeFormat;
  /** The suite of runs whose format names none. */
  suite: string;
  /** The repository name the commits are recorded under (a nightbench target's repository name). */
  repo: string;
  /** The source, kept with each run so that its origin stays known. */
  source: string;
}

const digest = (parts: readonly string[], length: number) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, length);

/** The cluster shape of an imported machine: never equal to a recorded run's (`local:2x1:2GiB`). */
export const importedClusterShape = (format: InterchangeFormat, machine: string) => `${format}:${machine}`;

export function historyRowOf(run: ImportedRun, placement: ImportPlacement): ImportRunRow {
  const suite = run.suite ?? placement.suite;
  const byWorkload = new Map<string, ImportedWorkloadValues>();
  for (const v of run.values) {
    let workload = byWorkload.get(v.workload);
    if (!workload) byWorkload.set(v.workload, (workload = { workload: v.workload, workloadVersion: v.workloadVersion, metrics: [] }));
    // The value itself, not a copy of its metric, value and unit: a large import reads hundreds of thousands.
    workload.metrics.push(v);
  }
  const { commit } = run;
  return {
    // 64 bits, unlike a recorded run's UUID: the id is in every value's keys, and a long one made
    // a large import's inserts about a quarter slower; the run's origin is in its config.
    id: digest([placement.format, suite, run.machine, run.environmentName, commit.sha], 16),
    suite,
    night: commit.date.slice(0, 10),
    startedAt: commit.date,
    environmentName: run.environmentName,
    environmentFingerprint: digest([JSON.stringify(run.environmentFacts)], 16),
    environment: run.environmentFacts,
    provider: placement.format,
    clusterShape: importedClusterShape(placement.format, run.machine),
    host: run.machine,
    harnessVersion: `imported from ${placement.format}`,
    target: { kind: 'imported', format: placement.format, commits: { [placement.repo]: commit.sha } },
    clusterInfo: { machine: run.machine, ...run.machineFacts },
    config: { imported: { format: placement.format, source: placement.source } },
    commit: {
      repo: placement.repo,
      sha: commit.sha,
      parents: [],
      authorName: commit.authorName ?? '',
      authorEmail: commit.authorEmail ?? '',
      authoredAt: commit.date,
      committedAt: commit.date,
      subject: commit.subject ?? '',
    },
    workloads: [...byWorkload.values()],
  };
}

/** The directions a run's tool states, keyed by suite, workload and metric (a later run's replace an earlier's). */
export function addDirections(into: TupleMap<DeclaredDirection>, run: ImportedRun, defaultSuite: string): void {
  const suite = run.suite ?? defaultSuite;
  for (const v of run.values) into.set([suite, v.workload, v.metric], { suite, workload: v.workload, metric: v.metric, direction: v.direction });
}
