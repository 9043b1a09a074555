/**
 * The site's reads of the history. The site reads every nightly value at once, so this scans
 * tables (commits of all runs in one query, values from the runs' stored points) rather than going through
 * `resultRows`; drill-down timelines are read one run and workload at a time, only for the files
 * being written.
 *
 * @module
 */
import type { RepeatFacts, ReportHistory, ReportRun, RunPoints } from './report-rows.js';
import { preparedOnce } from './prepared.js';
import { decodeRepeatValues } from './repeat-values.js';
import type { Db } from './database.js';
import { iterateRunPoints } from './run-points-queries.js';
import { cutShortCondition } from './whole-points-queries.js';
import { encodeRepeatTimelines } from './sample-timelines.js';
import type { CommitInfo, MachineFacts, MetricValue, ProcessSamples, RepeatStatus } from './types.js';
import { visitRunPoints } from './workload-nights.js';

/** Every nightly run with its commits, values of ok repeats, failed repeats and described commits. */
export function readReportHistory(db: Db): ReportHistory {
  const commitsByRun = new Map<string, { repo: string; sha: string }[]>();
  for (const [runId, repo, sha] of db.prepare("SELECT c.run_id, c.repo, c.sha FROM run_commits c JOIN runs r ON r.id = c.run_id WHERE r.kind = 'nightly' ORDER BY c.run_id, c.repo").raw().iterate() as Iterable<[string, string, string]>) {
    commitsByRun.set(runId, [...(commitsByRun.get(runId) ?? []), { repo, sha }]);
  }
  const runs = (
    db
      .prepare(
        `SELECT id, suite, night, started_at AS startedAt, environment_name AS environmentName, environment_fingerprint AS environmentFingerprint,
                provider, cluster_shape AS clusterShape, instance_type AS instanceType, machine, machine_class AS machineClass
         FROM runs WHERE kind = 'nightly' ORDER BY night, started_at`,
      )
      .all() as (Omit<ReportRun, 'commits' | 'instanceType' | 'machine' | 'machineClass'> & { instanceType: string | null; machine: string | null; machineClass: string | null })[]
  ).map(({ machine, machineClass, ...run }): ReportRun => ({
    ...run, instanceType: run.instanceType ?? undefined, commits: commitsByRun.get(run.id) ?? [],
    // Runs recorded before db/migrations/018 know no machine.
    ...(machine === null || machineClass === null ? {} : { machine: JSON.parse(machine) as MachineFacts, machineClass }),
  }));

  // Values run by run, in the runs' night order: the pages take a workload's variants in the order
  // its values come. The runs' stored points (run-points-queries.ts), one row per run where the
  // result rows are one per value (1.8 million at 20,000 series), handed over as stored: the pages
  // copy the values where they keep them.
  const storedOf = new Map<string, Uint8Array>();
  for (const { run, stored } of iterateRunPoints(db, { kind: 'nightly' })) storedOf.set(run.runId, stored);
  const points: RunPoints[] = [];
  // Failed repeats are read only where the stored points count some: a scan of every repeat for
  // them read 465,000 rows, values and all, at 20,000 series of 31 nights (0.4 s).
  const failedOf = db.prepare(
    `SELECT run_id AS runId, workload, repeat, status, error, failure_class AS failureClass, failure_cause AS failureCause FROM repeats
     WHERE run_id = ? AND workload = ? AND status IN ('failed', 'timeout') ORDER BY repeat`,
  );
  const failures: ReportHistory['failures'] = [];
  for (const { id: runId } of runs) {
    // A run another writer removed between the two reads (a prune) is left out of this build.
    const stored = storedOf.get(runId);
    if (stored === undefined) continue;
    points.push({ runId, stored });
    visitRunPoints(runId, stored, {
      workload(workload, failedRepeats) {
        if (failedRepeats > 0) failures.push(...(failedOf.all(runId, workload) as ReportHistory['failures']));
      },
      metric() {},
    });
  }

  const commits = (
    db
      .prepare(
        `SELECT repo, sha, parents, author_name AS authorName, author_email AS authorEmail, authored_at AS authoredAt, committed_at AS committedAt, subject
         FROM commits WHERE (repo, sha) IN (SELECT c.repo, c.sha FROM run_commits c JOIN runs r ON r.id = c.run_id WHERE r.kind = 'nightly')`,
      )
      .all() as (Omit<CommitInfo, 'parents'> & { parents: string })[]
  ).map((c): CommitInfo => ({ ...c, parents: c.parents ? c.parents.split(' ') : [] }));

  const unsupported = db
    .prepare("SELECT u.run_id AS runId, u.workload, u.reason FROM unsupported_workloads u JOIN runs r ON r.id = u.run_id AND r.kind = 'nightly'")
    .all() as NonNullable<ReportHistory['unsupported']>;

  // The condition holds for every repeat of a cut-short workload: one row per (run, workload).
  // Runs first (CROSS JOIN keeps SQLite's join in this order): only incomplete runs' repeats are
  // read, where SQLite otherwise scanned every repeat in the GROUP BY's order (465,000 at 20,000
  // series of 31 nights, 0.1 s).
  const cutShort = db
    .prepare(
      `SELECT p.run_id AS runId, p.workload, SUM(p.status IN ('ok', 'disturbed')) AS measured, json_extract(r.config, '$.repeats') AS configured
       FROM runs r CROSS JOIN repeats p ON r.id = p.run_id AND r.kind = 'nightly'
       WHERE ${cutShortCondition} GROUP BY p.run_id, p.workload`,
    )
    .all() as NonNullable<ReportHistory['cutShort']>;

  return { runs, points, failures, commits, unsupported, cutShort };
}

/** Which (run, workload) pairs have stored samples, as "runId\0workload". */
export function runsWithSamples(db: Db): Set<string> {
  const pairs = new Set<string>();
  for (const [runId, workload] of db.prepare('SELECT DISTINCT run_id, workload FROM samples').raw().iterate() as Iterable<[string, string]>) pairs.add(`${runId}\u0000${workload}`);
  return pairs;
}

/** Runs still being written: their drill-downs must be rebuilt next time, not kept. */
export function unfinishedRuns(db: Db): Set<string> {
  return new Set((db.prepare("SELECT id FROM runs WHERE status = 'running'").pluck().all() as string[]));
}

/** The repeats of one workload in one run: status, error, metrics and their processes' timelines as the bytes of their JSON. */
export function readRunWorkload(db: Db, runId: string, workload: string): RepeatFacts[] {
  // Once per drill-down: 5,000 a night at 5,000 workloads, where preparing them each time cost 0.8 s.
  const repeats = preparedOnce(
    db,
    `SELECT p.repeat, p.status, p.error, p.metric_values AS stored, CAST(l.processes AS BLOB) AS processes
     FROM repeats p LEFT JOIN repeat_timelines l USING (run_id, workload, repeat) WHERE p.run_id = ? AND p.workload = ? ORDER BY p.repeat`,
  ).all(runId, workload) as { repeat: number; status: RepeatStatus; error: string | null; stored: string; processes: Buffer | null }[];
  // Repeats recorded before their timelines were (db/migrations/028): cut from their samples now.
  const samples = repeats.some((r) => r.processes === null)
    ? (preparedOnce(db, 'SELECT repeat, process, host, t, rss, cpu FROM samples WHERE run_id = ? AND workload = ?').all(runId, workload) as { repeat: number; process: string; host: string; t: string; rss: string; cpu: string }[])
    : [];
  return repeats.map(({ stored, processes, ...r }) => ({
    ...r,
    metrics: decodeRepeatValues(stored).map(([metric, value, unit]): MetricValue => ({ metric, value, unit })),
    timelines:
      processes ??
      Buffer.from(encodeRepeatTimelines(
        samples
          .filter((s) => s.repeat === r.repeat)
          .map((s): ProcessSamples => ({ process: s.process, host: s.host, t: JSON.parse(s.t) as number[], rss: JSON.parse(s.rss) as number[], cpu: JSON.parse(s.cpu) as number[] })),
      )),
  }));
}
