/**
 * The real ports of a replay: the history's nightly workload nights, detection as the nightly runs it (the
 * stored episodes advance), and the nightly's issue publishing bound to files only.
 *
 * @module
 */
import type { LoadedConfig } from '../config/load.js';
import { detectRegressions, readFrom } from '../detect/run.js';
import { fileTracker } from '../issues/file-tracker.js';
import { publishIssues } from '../issues/publish.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import type { ReplayPorts } from './run-replay.js';

export function replayPorts(loaded: LoadedConfig, store: Pick<HistoryStore, 'runs' | 'episodes' | 'triage'>, log: Log, issuesDir: string): ReplayPorts {
  const policy = loaded.config.detection;
  // A night's publishing says what it plans at info level: over years of nights that is noise.
  const quiet: Log = { ...log, info: log.debug };
  const issueFiles = { dir: issuesDir, tracker: fileTracker(issuesDir) };
  return {
    workloadNights: (since) => store.runs.streamWorkloadNights({ kind: 'nightly', sinceNight: since, wholePointsOnly: true }),
    judgeNight: (night, series) => detectRegressions(store, policy, { now: night, series }),
    markReplayed: (ids) => void store.episodes.markEpisodesFound(ids, 'replay'),
    // No confirmation rerun (that would run the cluster) and no token: what the nightly files without one.
    publishNight: async (report) => (await publishIssues({ report, store, loaded, env: {}, log: quiet, issueFiles })).actions,
    episodes: (ids) => (ids.length === 0 ? [] : store.episodes.episodes({ ids: [...ids] })),
    episodesReaching: (night) => store.episodes.episodes().filter((e) => e.lastNight >= night).length,
    lookbackStart: (night) => readFrom(store, policy, night),
    now: () => Date.now(),
    log,
  };
}
