/**
 * Detection's SQL: the `regressions` table (db/migrations/002, 004) of episodes read, planned
 * changes applied, issue numbers and acceptance stored by the GitHub side; the directions the
 * suites declare; the latest nightly night. RunStore and EpisodeStore expose these as methods.
 *
 * @module
 */
import type { Db } from './database.js';
import { guardSqlite as guard } from './database.js';
import type { EpisodeChange, Episode, EpisodeKind, EpisodeState } from './episode-rows.js';
import type { Direction, MetricDirection } from '../direction.js';
import type { NightRef } from './types.js';

interface EpisodeRow {
  id: number;
  kind: EpisodeKind;
  fingerprint: string;
  series_key: string;
  suite: string;
  workload: string;
  workload_version: string;
  metric: string;
  unit: string | null;
  direction: Direction;
  environment_name: string;
  environment_fingerprint: string;
  provider: string;
  cluster_shape: string;
  instance_type: string | null;
  first_bad_night: string;
  first_bad_run_id: string;
  first_bad_commits: string;
  last_good_night: string;
  last_good_run_id: string;
  last_good_commits: string;
  baseline_median: number;
  baseline_noise: number;
  new_median: number;
  ratio: number;
  p_value: number;
  state: EpisodeState;
  last_night: string;
  latest_median: number;
  nights_back: number;
  recovered_night: string | null;
  issue_number: number | null;
  issue_fingerprint: string | null;
  first_bad_machine_class: string | null;
  last_good_machine_class: string | null;
}

/** Which episodes `loadEpisodes` returns; every field given must match. */
export interface EpisodeFilter {
  suite?: string;
  states?: readonly EpisodeState[];
  ids?: readonly number[];
}

/** Episodes matching the filter, oldest first. */
export function loadEpisodes(db: Db, filter: EpisodeFilter = {}): Episode[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.suite !== undefined) (where.push('g.suite = ?'), params.push(filter.suite));
  if (filter.states) (where.push(`g.state IN (${filter.states.map(() => '?').join(',')})`), params.push(...filter.states));
  if (filter.ids) (where.push(`g.id IN (${filter.ids.map(() => '?').join(',')})`), params.push(...filter.ids));
  // The machine classes of the episode's two nights come from their runs (db/migrations/018).
  const rows = guard(db, () =>
    db
      .prepare(
        `SELECT g.*, bad.machine_class AS first_bad_machine_class, good.machine_class AS last_good_machine_class
         FROM regressions g LEFT JOIN runs bad ON bad.id = g.first_bad_run_id LEFT JOIN runs good ON good.id = g.last_good_run_id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY g.first_bad_night, g.id`,
      )
      .all(...params) as EpisodeRow[],
  );
  return rows.map(episodeOf);
}

/**
 * Carries out a plan from `planEpisodes` in one transaction and returns the ids of the episodes
 * it opened. Opening an episode whose fingerprint is stored already does nothing.
 */
export function applyEpisodeChanges(db: Db, changes: readonly EpisodeChange[]): number[] {
  return guard(db, () =>
    db
      .transaction(() => {
        const insert = db.prepare(
          `INSERT INTO regressions (kind, fingerprint, series_key, suite, workload, workload_version, metric, unit, direction, environment_name,
             environment_fingerprint, provider, cluster_shape, instance_type, first_bad_night, first_bad_run_id, first_bad_commits,
             last_good_night, last_good_run_id, last_good_commits, baseline_median, baseline_noise, new_median, ratio, p_value, state,
             last_night, latest_median, nights_back)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (fingerprint) DO NOTHING`,
        );
        const update = db.prepare('UPDATE regressions SET state = ?, last_night = ?, latest_median = ?, nights_back = ?, recovered_night = ? WHERE id = ? AND last_night < ?');
        const opened: number[] = [];
        for (const change of changes) {
          if (change.action === 'update') {
            update.run(change.to, change.lastNight, change.latestMedian, change.nightsBack, change.recoveredNight ?? null, change.id, change.lastNight);
            continue;
          }
          const e = change.episode;
          const { identity } = e;
          const result = insert.run(
            e.kind, e.fingerprint, e.seriesKey, identity.suite, identity.workload, identity.workloadVersion, identity.metric, e.unit, e.direction,
            identity.environmentName, identity.environmentFingerprint, identity.provider, identity.clusterShape, identity.instanceType ?? null,
            e.firstBad.night, e.firstBad.runId, JSON.stringify(e.firstBad.commits), e.lastGood.night, e.lastGood.runId, JSON.stringify(e.lastGood.commits),
            e.baselineMedian, e.baselineNoise, e.newMedian, e.ratio, e.pValue, e.state, e.lastNight, e.latestMedian, e.nightsBack,
          );
          if (result.changes > 0) opened.push(Number(result.lastInsertRowid));
        }
        return opened;
      })
      .immediate(),
  );
}

/**
 * Remembers the issue each episode joined (by the issue's fingerprint), once: an episode already
 * in an issue stays there. Returns how many rows changed.
 */
export function assignEpisodeIssues(db: Db, assignments: ReadonlyMap<number, string>): number {
  if (assignments.size === 0) return 0;
  return guard(db, () =>
    db
      .transaction(() => {
        const assign = db.prepare('UPDATE regressions SET issue_fingerprint = ? WHERE id = ? AND issue_fingerprint IS NULL');
        let changed = 0;
        for (const [id, fingerprint] of assignments) changed += assign.run(fingerprint, id).changes;
        return changed;
      })
      .immediate(),
  );
}

/** Records the GitHub issue that reports these episodes; returns how many rows changed. */
export function setEpisodeIssue(db: Db, episodeIds: readonly number[], issueNumber: number): number {
  if (episodeIds.length === 0) return 0;
  return guard(db, () => db.prepare(`UPDATE regressions SET issue_number = ? WHERE id IN (${episodeIds.map(() => '?').join(',')})`).run(issueNumber, ...episodeIds).changes);
}

/**
 * A maintainer accepted the new level (closed the issue): the episodes end as accepted, and
 * later nights of their series are compared with nights from their first bad night on.
 * Episodes that already recovered stay recovered. Returns how many rows changed.
 */
export function markEpisodesAccepted(db: Db, episodeIds: readonly number[]): number {
  if (episodeIds.length === 0) return 0;
  return guard(db, () =>
    db
      .prepare(`UPDATE regressions SET state = 'accepted' WHERE state IN ('open', 'still-regressed') AND id IN (${episodeIds.map(() => '?').join(',')})`)
      .run(...episodeIds).changes,
  );
}

/**
 * A confirmation rerun did not reproduce these episodes (github.confirm): they end as unconfirmed,
 * never filed and never confirmed again. Only episodes still without an issue change.
 */
export function markEpisodesUnconfirmed(db: Db, episodeIds: readonly number[]): number {
  if (episodeIds.length === 0) return 0;
  return guard(db, () =>
    db
      .prepare(`UPDATE regressions SET state = 'unconfirmed' WHERE state IN ('open', 'still-regressed') AND issue_number IS NULL AND id IN (${episodeIds.map(() => '?').join(',')})`)
      .run(...episodeIds).changes,
  );
}

/** The latest night with a nightly run (of `suite`, if given), or undefined for an empty history. */
export function latestNightlyNight(db: Db, suite?: string): string | undefined {
  const row = guard(db, () =>
    suite === undefined
      ? (db.prepare("SELECT max(night) AS night FROM runs WHERE kind = 'nightly'").get() as { night: string | null })
      : (db.prepare("SELECT max(night) AS night FROM runs WHERE kind = 'nightly' AND suite = ?").get(suite) as { night: string | null }),
  );
  return row.night ?? undefined;
}

/**
 * The oldest of the `count` latest nights before `night` with a nightly run (of `suite`, if
 * given); undefined when there are fewer (everything before `night` is then needed). Detection
 * reads from here: its windows count results, not calendar days.
 */
export function nightlyNightsBack(db: Db, night: string, count: number, suite?: string): string | undefined {
  const row = guard(db, () =>
    db
      .prepare(
        `SELECT min(night) AS night, count(*) AS nights FROM (SELECT DISTINCT night FROM runs
         WHERE kind = 'nightly' AND night < ? AND (? IS NULL OR suite = ?) ORDER BY night DESC LIMIT ?)`,
      )
      .get(night, suite ?? null, suite ?? null, count) as { night: string | null; nights: number },
  );
  return row.nights < count ? undefined : (row.night ?? undefined);
}

/** A metric's direction as a suite's listing declares it. */
export interface DeclaredDirection {
  suite: string;
  workload: string;
  metric: string;
  direction: MetricDirection;
}

/** Stores what the suites declare (the latest listing wins). */
export function recordMetricDirections(db: Db, directions: readonly DeclaredDirection[]): void {
  guard(db, () => {
    const upsert = db.prepare(
      'INSERT INTO metric_directions (suite, workload, metric, direction) VALUES (?, ?, ?, ?) ON CONFLICT (suite, workload, metric) DO UPDATE SET direction = excluded.direction',
    );
    db.transaction(() => {
      for (const d of directions) upsert.run(d.suite, d.workload, d.metric, d.direction);
    }).immediate();
  });
}

/** Every declared direction; `none` (no better way) is judged as `lower`, the default. */
export function metricDirections(db: Db): DeclaredDirection[] {
  return guard(db, () => db.prepare('SELECT suite, workload, metric, direction FROM metric_directions').all() as DeclaredDirection[]);
}

function nightRefOf(night: string, runId: string, commits: string, machineClass: string | null): NightRef {
  const ref = { night, runId, commits: JSON.parse(commits) as Record<string, string> };
  return machineClass === null ? ref : { ...ref, machineClass };
}

function episodeOf(row: EpisodeRow): Episode {
  return {
    id: row.id,
    kind: row.kind,
    fingerprint: row.fingerprint,
    seriesKey: row.series_key,
    identity: {
      suite: row.suite,
      workload: row.workload,
      workloadVersion: row.workload_version,
      metric: row.metric,
      environmentName: row.environment_name,
      environmentFingerprint: row.environment_fingerprint,
      provider: row.provider,
      clusterShape: row.cluster_shape,
      instanceType: row.instance_type ?? undefined,
    },
    unit: row.unit,
    direction: row.direction,
    firstBad: nightRefOf(row.first_bad_night, row.first_bad_run_id, row.first_bad_commits, row.first_bad_machine_class),
    lastGood: nightRefOf(row.last_good_night, row.last_good_run_id, row.last_good_commits, row.last_good_machine_class),
    baselineMedian: row.baseline_median,
    baselineNoise: row.baseline_noise,
    newMedian: row.new_median,
    ratio: row.ratio,
    pValue: row.p_value,
    state: row.state,
    lastNight: row.last_night,
    latestMedian: row.latest_median,
    nightsBack: row.nights_back,
    recoveredNight: row.recovered_night ?? undefined,
    issueNumber: row.issue_number ?? undefined,
    ...(row.issue_fingerprint === null ? {} : { issueFingerprint: row.issue_fingerprint }),
  };
}
