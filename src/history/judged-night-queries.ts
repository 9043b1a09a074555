/**
 * The night detection judged last, per suite (db/migrations/025-judged-nights.sql): its verdicts
 * stored with the history version they were judged at, so the summary, the pages and `tune` read
 * them instead of judging the night again. The verdicts are detection's (src/detect/judge.ts),
 * kept here as JSON text: the history stores them, detection reads them back.
 *
 * @module
 */
import type { Db } from './database.js';
import { preparedOnce } from './prepared.js';

/** A judged night as stored. `current`: nothing detection reads was written since. */
export interface JudgedNightRow {
  suite: string;
  night: string;
  policy: string;
  verdicts: string;
  machine: string | null;
  current: boolean;
}

/**
 * The history's version now, taken to be compared later: any later write to what detection reads
 * advances it (the triggers of migrations 025 and 027). Taking it arms the trigger of new repeats,
 * which advances the version only once after each time it was taken. A write: call it in one.
 */
export function takeHistoryVersion(db: Db): number {
  return preparedOnce(db, 'UPDATE history_version SET armed = 1 WHERE id = 1 RETURNING version').pluck().get() as number;
}

/**
 * Stores the judged night of `suite` at the history's version now, replacing the suite's last
 * one. Called in the transaction that wrote the night's episode changes, after them.
 */
export function recordJudgedNight(db: Db, night: Omit<JudgedNightRow, 'current'>, judgedAt: string): void {
  takeHistoryVersion(db);
  preparedOnce(
    db,
    `INSERT OR REPLACE INTO judged_nights (suite, night, policy, history_version, verdicts, machine, judged_at)
     VALUES (?, ?, ?, (SELECT version FROM history_version WHERE id = 1), ?, ?, ?)`,
  ).run(night.suite, night.night, night.policy, night.verdicts, night.machine, judgedAt);
}

/** Forgets the suite's judged night: the history changed while it was being judged. */
export function forgetJudgedNight(db: Db, suite: string): void {
  preparedOnce(db, 'DELETE FROM judged_nights WHERE suite = ?').run(suite);
}

/** The suite's last judged night, if one is stored. */
export function judgedNight(db: Db, suite: string): JudgedNightRow | undefined {
  const row = preparedOnce(
    db,
    `SELECT j.suite, j.night, j.policy, j.verdicts, j.machine, j.history_version = v.version AS current
     FROM judged_nights j, history_version v WHERE j.suite = ? AND v.id = 1`,
  ).get(suite) as (Omit<JudgedNightRow, 'current'> & { current: number }) | undefined;
  return row && { ...row, current: row.current === 1 };
}
