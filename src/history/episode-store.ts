/**
 * Detection's episodes, machine nights and last judged night (regression-queries.ts,
 * backfill-queries.ts, machine-queries.ts, judged-night-queries.ts): planned changes applied,
 * issue numbers and verdicts recorded by the issue and triage side.
 *
 * @module
 */
import { markEpisodesFound, type OfflineJudge } from './backfill-queries.js';
import type { Episode, EpisodeChange, MachineNight } from './episode-rows.js';
import { forgetJudgedNight, judgedNight, recordJudgedNight, takeHistoryVersion, type JudgedNightRow } from './judged-night-queries.js';
import { machineNights, recordMachineNight } from './machine-queries.js';
import { applyEpisodeChanges, assignEpisodeIssues, loadEpisodes, markEpisodesAccepted, markEpisodesUnconfirmed, setEpisodeIssue, type EpisodeFilter } from './regression-queries.js';
import type { StoreHandle } from './store-handle.js';

export class EpisodeStore {
  constructor(private readonly handle: StoreHandle) {}

  /** Detection's episodes matching the filter, oldest first (see `regression-queries.ts`). */
  episodes(filter: EpisodeFilter = {}): Episode[] {
    return loadEpisodes(this.handle.db, filter);
  }

  /** Remembers the issue each episode joined (episode id -> issue fingerprint); an episode already in one keeps it. */
  assignEpisodeIssues(assignments: ReadonlyMap<number, string>): number {
    return assignEpisodeIssues(this.handle.db, assignments);
  }

  /** Records the GitHub issue that reports these episodes; returns how many rows changed. */
  setEpisodeIssue(episodeIds: readonly number[], issueNumber: number): number {
    return setEpisodeIssue(this.handle.db, episodeIds, issueNumber);
  }

  /** A maintainer accepted the new level of these episodes; returns how many rows changed. */
  markEpisodesAccepted(episodeIds: readonly number[]): number {
    return markEpisodesAccepted(this.handle.db, episodeIds);
  }

  /** A confirmation rerun did not reproduce these episodes; returns how many rows changed. */
  markEpisodesUnconfirmed(episodeIds: readonly number[]): number {
    return markEpisodesUnconfirmed(this.handle.db, episodeIds);
  }

  /** Marks episodes that judging past nights again found (a backfill's or a replay's). */
  markEpisodesFound(episodeIds: readonly number[], by: OfflineJudge): number {
    return markEpisodesFound(this.handle.db, episodeIds, by);
  }

  /**
   * What detection found on a night, in one transaction: the episode changes, the machine finding
   * and (`judged`) the night's verdicts. Those are kept only if nothing was written to the history
   * since `judged.readVersion`, the version detection read before judging: else the suite's stored
   * night is dropped, and its readers judge again. Returns the ids of the episodes it opened.
   */
  recordNight(changes: readonly EpisodeChange[], machine: MachineNight | undefined, judged?: { readVersion: number; night: Omit<JudgedNightRow, 'current'>; at: string }): number[] {
    return this.handle.write(() => {
      const untouched = judged !== undefined && takeHistoryVersion(this.handle.db) === judged.readVersion;
      const opened = applyEpisodeChanges(this.handle.db, changes);
      if (machine) recordMachineNight(this.handle.db, machine);
      if (judged && untouched) recordJudgedNight(this.handle.db, judged.night, judged.at);
      else if (judged) forgetJudgedNight(this.handle.db, judged.night.suite);
      return opened;
    });
  }

  /** The version of what detection reads, taken: any later write to it advances it (judged-night-queries.ts). */
  historyVersion(): number {
    return this.handle.write(() => takeHistoryVersion(this.handle.db));
  }

  /** The last judged night of `suite` ('' for every suite judged together), if stored. */
  judgedNight(suite: string): JudgedNightRow | undefined {
    return judgedNight(this.handle.db, suite);
  }

  /** Nights the machine, not the code, moved (machine-queries.ts). */
  machineNights(filter: { sinceNight?: string; machineOnly?: boolean } = {}): MachineNight[] {
    return machineNights(this.handle.db, filter);
  }
}
