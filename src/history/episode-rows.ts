/**
 * What detection stores and reads back: episodes (db/migrations/002, 004) and the machine
 * finding of each judged night (012). The history owns these shapes; src/detect plans with them
 * (episodes.ts, machine-night.ts) and regression-queries.ts / machine-queries.ts write them.
 *
 * @module
 */
import type { Direction, NightRef, SeriesIdentity } from './types.js';

/**
 * `open` the night it is found, `still-regressed` after; `recovered`, `accepted`,
 * `unconfirmed` (a confirmation rerun before filing did not reproduce it, github.confirm) and
 * `retired` (the series has no ok result in its suite's whole lookback: no longer measured) are final.
 */
export type EpisodeState = 'open' | 'still-regressed' | 'recovered' | 'accepted' | 'unconfirmed' | 'retired';

/** Which way an episode moved the series, as its direction judges it. */
export type EpisodeKind = 'regression' | 'improvement';

/**
 * One level shift of one series (a regression, or an improvement), from the night it began until
 * it recovers (the series comes back) or is accepted.
 */
export interface Episode {
  id: number;
  kind: EpisodeKind;
  /** Hash of the series key and the first bad night: stable, so an issue can carry it. */
  fingerprint: string;
  seriesKey: string;
  identity: SeriesIdentity;
  unit: string | null;
  direction: Direction;
  firstBad: NightRef;
  lastGood: NightRef;
  /** The level before the shift: the baseline median of the first bad night. */
  baselineMedian: number;
  /** Relative noise of a nightly median in that baseline; recovery is judged in these units. */
  baselineNoise: number;
  /** The shifted level when found (the first bad night's median on the fast path), its ratio to the baseline and its p-value (1 on the persistence path, which has none). */
  newMedian: number;
  ratio: number;
  pValue: number;
  state: EpisodeState;
  /** The last night that updated the episode; a night at or before it changes nothing. */
  lastNight: string;
  latestMedian: number;
  /** Consecutive ok nights back within noise of the pre-regression level, so far. */
  nightsBack: number;
  recoveredNight?: string;
  issueNumber?: number;
  /** The fingerprint of the issue the episode joined (`src/issues/group.ts`), once it joined one. */
  issueFingerprint?: string;
}

/** An episode as the planner opens it, before the table gives it an id. */
export type NewEpisode = Omit<Episode, 'id' | 'issueNumber' | 'issueFingerprint' | 'recoveredNight'>;

/** What tonight does to the stored episodes. */
export type EpisodeChange =
  | { action: 'open'; episode: NewEpisode }
  | {
      action: 'update';
      id: number;
      fingerprint: string;
      seriesKey: string;
      from: EpisodeState;
      to: EpisodeState;
      lastNight: string;
      latestMedian: number;
      nightsBack: number;
      recoveredNight?: string;
    };

/** `machine-changed`: most series ran on another machine class than their baseline (machine-change.ts). */
export type MachineSign = 'canary' | 'common-mode' | 'machine-changed';

/** Whether the machine, not the code, moved a judged night (src/detect/machine-night.ts). */
export interface MachineNight {
  night: string;
  /** The suite detection judged ('' for every suite). */
  suite: string;
  machine: boolean;
  /** Which signs marked it (empty when none did). */
  signs: MachineSign[];
  /** `slower` or `faster`: which way the machine moved the night (when marked). */
  direction?: 'slower' | 'faster';
  /** The canary's change against its baseline, when it was judged. */
  canaryChange?: number;
  /** Timed series judged tonight (the canary's left out), and those that moved the dominant way. */
  judgedSeries: number;
  movedSeries: number;
  /** Workloads with a timed series among those moved (absent on nights stored before it was counted). */
  movedWorkloads?: number;
  /** One line: why, or why not. */
  reason: string;
}
