/**
 * Detection's episodes and machine nights (regression-queries.ts, backfill-queries.ts,
 * machine-queries.ts): planned changes applied, issue numbers and verdicts recorded by the issue
 * and triage side.
 *
 * @module
 */
import { markEpisodesFound, type OfflineJudge } from './backfill-queries.js';
import type { Episode, EpisodeChange, MachineNight } from './episode-rows.js';
import { machineNights, recordMachineNight } from './machine-queries.js';
import { applyEpisodeChanges, assignEpisodeIssues, loadEpisodes, markEpisodesAccepted, markEpisodesUnconfirmed, setEpisodeIssue, type EpisodeFilter } from './regression-queries.js';
import type { StoreHandle } from './store-handle.js';

export class EpisodeStore {
  constructor(private readonly handle: StoreHandle) {}

  /** Detection's episodes matching the filter, oldest first (see `regression-queries.ts`). */
  episodes(filter: EpisodeFilter = {}): Episode[] {
    return loadEpisodes(this.handle.db, filter);
  }

  /** Carries out a plan of episode changes in one transaction; returns the ids of the episodes it opened. */
  applyEpisodeChanges(changes: readonly EpisodeChange[]): number[] {
    return applyEpisodeChanges(this.handle.db, changes);
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

  /** Nights the machine, not the code, moved (machine-queries.ts). */
  recordMachineNight(finding: MachineNight): void {
    this.handle.write(() => recordMachineNight(this.handle.db, finding));
  }

  machineNights(filter: { sinceNight?: string; machineOnly?: boolean } = {}): MachineNight[] {
    return machineNights(this.handle.db, filter);
  }
}
