/**
 * The `bisects` table (db/migrations/008-bisect.sql) and the link of a bisect's runs to it.
 *
 * @module
 */
import type { Db } from './database.js';

export interface NewBisect {
  id: string;
  createdAt: string;
  mode: 'bisect' | 'rerun';
  judged: 'metric' | 'pass-fail';
  episodeId?: number;
  issueNumber?: number;
  suite: string;
  workload: string;
  metric: string;
  goodCommits: Record<string, string>;
  badCommits: Record<string, string>;
  host: string;
  pid: number;
  bootId?: string;
  startTicks?: number;
}

export interface BisectOutcomeRecord {
  status: 'complete' | 'failed' | 'incomplete';
  finishedAt: string;
  outcome?: 'culprit' | 'spread' | 'not-reproduced' | 'ambiguous';
  culprit?: { repo: string; sha: string };
  /** Every step's figures and the confirmation, as JSON. */
  result: unknown;
  clusterSeconds: number;
}

/** A bisect as the workload's page lists it. */
export interface BisectRecord extends Omit<NewBisect, 'host' | 'pid' | 'bootId' | 'startTicks'> {
  status: string;
  finishedAt?: string;
  outcome?: string;
  culprit?: { repo: string; sha: string };
  clusterSeconds?: number;
  result?: unknown;
}

export function insertBisect(db: Db, bisect: NewBisect): void {
  db.prepare(
    `INSERT INTO bisects (id, created_at, status, mode, judged, episode_id, issue_number, suite, workload, metric, good_commits, bad_commits, host, pid, boot_id, start_ticks)
     VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(bisect.id, bisect.createdAt, bisect.mode, bisect.judged, bisect.episodeId ?? null, bisect.issueNumber ?? null, bisect.suite, bisect.workload, bisect.metric, JSON.stringify(bisect.goodCommits), JSON.stringify(bisect.badCommits), bisect.host, bisect.pid, bisect.bootId ?? null, bisect.startTicks ?? null);
}

export function finishBisect(db: Db, id: string, outcome: BisectOutcomeRecord): void {
  db.prepare('UPDATE bisects SET status = ?, finished_at = ?, outcome = ?, culprit_repo = ?, culprit_sha = ?, result = ?, cluster_seconds = ? WHERE id = ?').run(
    outcome.status,
    outcome.finishedAt,
    outcome.outcome ?? null,
    outcome.culprit?.repo ?? null,
    outcome.culprit?.sha ?? null,
    JSON.stringify(outcome.result),
    outcome.clusterSeconds,
    id,
  );
}

export function linkRunToBisect(db: Db, runId: string, bisectId: string): void {
  db.prepare('UPDATE runs SET bisect_id = ? WHERE id = ?').run(bisectId, runId);
}

interface BisectRow {
  id: string;
  created_at: string;
  finished_at: string | null;
  status: string;
  mode: 'bisect' | 'rerun';
  judged: 'metric' | 'pass-fail';
  episode_id: number | null;
  issue_number: number | null;
  suite: string;
  workload: string;
  metric: string;
  good_commits: string;
  bad_commits: string;
  outcome: string | null;
  culprit_repo: string | null;
  culprit_sha: string | null;
  result: string | null;
  cluster_seconds: number | null;
}

/** Bisects of one workload (or all), newest first. */
export function selectBisects(db: Db, filter: { suite?: string; workload?: string } = {}): BisectRecord[] {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.suite !== undefined) (where.push('suite = ?'), params.push(filter.suite));
  if (filter.workload !== undefined) (where.push('workload = ?'), params.push(filter.workload));
  const rows = db.prepare(`SELECT * FROM bisects ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC`).all(...params) as BisectRow[];
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    mode: row.mode,
    judged: row.judged,
    ...(row.episode_id === null ? {} : { episodeId: row.episode_id }),
    ...(row.issue_number === null ? {} : { issueNumber: row.issue_number }),
    suite: row.suite,
    workload: row.workload,
    metric: row.metric,
    goodCommits: JSON.parse(row.good_commits) as Record<string, string>,
    badCommits: JSON.parse(row.bad_commits) as Record<string, string>,
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    ...(row.culprit_repo && row.culprit_sha ? { culprit: { repo: row.culprit_repo, sha: row.culprit_sha } } : {}),
    ...(row.cluster_seconds === null ? {} : { clusterSeconds: row.cluster_seconds }),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as unknown }),
  }));
}
