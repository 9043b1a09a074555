/**
 * Past nights judged again, oldest first, each as the nightly would have judged it live, and the
 * episodes each night opened marked with who found them: what a backfill does after recording and
 * what a replay does over any history. Only the ports differ.
 *
 * @module
 */
import type { OfflineJudge } from '../history/backfill-queries.js';

export interface NightJudge {
  /** Stored detection of one night; the ids of the episodes it opened. */
  judgeNight(night: string): number[] | Promise<number[]>;
  /** Marks the episodes as found by judging past nights again, not seen live. */
  markFound(episodeIds: number[], by: OfflineJudge): void;
  /** What follows a night's judgement (a replay's issue files, its progress). */
  afterNight?(night: string, index: number, opened: number[]): void | Promise<void>;
  /** True when the judging should stop after the current night (an interrupt). */
  interrupted?(): boolean;
}

export interface JudgedNights {
  judged: string[];
  episodesFound: number[];
}

/** Judges `nights` in the order given (oldest first), one after the other: a night's episodes are the next night's baseline. */
export async function judgeNightsInOrder(nights: readonly string[], judge: NightJudge, by: OfflineJudge): Promise<JudgedNights> {
  const outcome: JudgedNights = { judged: [], episodesFound: [] };
  for (const [index, night] of nights.entries()) {
    if (judge.interrupted?.()) break;
    const opened = await judge.judgeNight(night);
    judge.markFound(opened, by);
    outcome.judged.push(night);
    outcome.episodesFound.push(...opened);
    await judge.afterNight?.(night, index, opened);
  }
  return outcome;
}
