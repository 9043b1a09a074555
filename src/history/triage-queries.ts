/**
 * The `triage_events` table (db/migrations/005-triage.sql): the commands maintainers gave in
 * issue comments, appended once each, read back for verdicts, fixes and false alarms.
 *
 * @module
 */
import type { Db } from './database.js';
import { guardSqlite as guard } from './database.js';

const triageCommandNames = ['accept', 'false-alarm', 'bisect', 'rerun', 'fixed-by'] as const;
export type TriageCommandName = (typeof triageCommandNames)[number];

/** One command a maintainer gave on an issue, as recorded. */
export interface TriageEvent {
  /** `comment:<id>` for a GitHub comment: the same comment is never recorded twice. */
  key: string;
  issueNumber: number;
  /**
   * Fingerprints of the episodes the issue reports; empty when the history the command was
   * carried out on did not hold them yet (they are then the episodes with the issue's number).
   */
  episodes: string[];
  command: TriageCommandName;
  /** fixed-by: the commit; the others: the rest of the command's line, as text. */
  argument?: string;
  author: string;
  /** ISO time the issue was opened. */
  issueOpenedAt: string;
  /** ISO time of the comment. */
  at: string;
}

interface TriageEventRow {
  key: string;
  issue_number: number;
  episodes: string;
  command: TriageCommandName;
  argument: string | null;
  author: string;
  issue_opened_at: string;
  at: string;
}

/** Records a command; false when its key is recorded already (a workflow run again). */
export function recordTriageEvent(db: Db, event: TriageEvent): boolean {
  return guard(db, () =>
    db
      .prepare(
        `INSERT INTO triage_events (key, issue_number, episodes, command, argument, author, issue_opened_at, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
      )
      .run(event.key, event.issueNumber, JSON.stringify(event.episodes), event.command, event.argument ?? null, event.author, event.issueOpenedAt, event.at).changes > 0,
  );
}

/** Every recorded command (of one issue, if given), oldest first. */
export function triageEvents(db: Db, filter: { issueNumber?: number } = {}): TriageEvent[] {
  const rows = guard(db, () =>
    filter.issueNumber === undefined
      ? (db.prepare('SELECT * FROM triage_events ORDER BY at, key').all() as TriageEventRow[])
      : (db.prepare('SELECT * FROM triage_events WHERE issue_number = ? ORDER BY at, key').all(filter.issueNumber) as TriageEventRow[]),
  );
  return rows.map((row) => ({
    key: row.key,
    issueNumber: row.issue_number,
    episodes: JSON.parse(row.episodes) as string[],
    command: row.command,
    ...(row.argument === null ? {} : { argument: row.argument }),
    author: row.author,
    issueOpenedAt: row.issue_opened_at,
    at: row.at,
  }));
}

/** What nightbench did on GitHub for a recorded command (db/migrations/013-triage-steps.sql). */
export type TriageStep = 'labelled' | 'dispatched' | 'closed';

/** Records that `step` of the command `eventKey` is done; doing it again records nothing. */
export function recordTriageStep(db: Db, eventKey: string, step: TriageStep, at: string): void {
  guard(db, () => db.prepare('INSERT INTO triage_steps (event_key, step, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(eventKey, step, at));
}

/** The steps of the command `eventKey` done so far. */
export function triageSteps(db: Db, eventKey: string): Set<TriageStep> {
  return new Set(guard(db, () => db.prepare('SELECT step FROM triage_steps WHERE event_key = ?').pluck().all(eventKey) as TriageStep[]));
}

/** Issue number -> the commit its latest `/nightbench fixed-by` named. */
export function recordedFixes(db: Db): Map<number, string> {
  const rows = guard(db, () => db.prepare("SELECT issue_number AS issue, argument FROM triage_events WHERE command = 'fixed-by' ORDER BY at, key").all() as { issue: number; argument: string }[]);
  return new Map(rows.map((row) => [row.issue, row.argument]));
}

/** One episode a maintainer called a false alarm, with what detection needs to learn from it. */
export interface FalseAlarm {
  /** The episode's series (regressions.series_key): what detection keys its noise by. */
  seriesKey: string;
  suite: string;
  workload: string;
  metric: string;
  episodeFingerprint: string;
  firstBadNight: string;
  /** The first bad night's median over the baseline's: how big the false step looked. */
  ratio: number;
  /** The noise estimate the episode was opened with. */
  baselineNoise: number;
  issueNumber: number;
  at: string;
}

/**
 * Episodes called a false alarm (`/nightbench false-alarm`) and not accepted or called a false
 * alarm again later, oldest first: for detection's noise estimate and for the quality page.
 */
export function falseAlarmEpisodes(db: Db): FalseAlarm[] {
  return guard(db, () =>
    db
      .prepare(
        `WITH said AS (
           SELECT e.command, e.at, e.issue_number, f.value AS fingerprint FROM triage_events e JOIN json_each(e.episodes) f
           UNION ALL
           -- A command recorded before its copy of the history held the issue's episodes (a triage
           -- racing the nightly's save) concerns the episodes the issue reports.
           SELECT e.command, e.at, e.issue_number, r.fingerprint FROM triage_events e JOIN regressions r ON r.issue_number = e.issue_number
           WHERE json_array_length(e.episodes) = 0
         )
         SELECT r.series_key AS seriesKey, r.suite, r.workload, r.metric, r.fingerprint AS episodeFingerprint, r.first_bad_night AS firstBadNight,
                r.ratio, r.baseline_noise AS baselineNoise, e.issue_number AS issueNumber, max(e.at) AS at
         FROM said e JOIN regressions r ON r.fingerprint = e.fingerprint
         WHERE e.command = 'false-alarm'
           AND NOT EXISTS (SELECT 1 FROM said later WHERE later.fingerprint = r.fingerprint AND later.command = 'accept' AND later.at > e.at)
         GROUP BY r.fingerprint ORDER BY r.first_bad_night, r.id`,
      )
      .all() as FalseAlarm[],
  );
}
