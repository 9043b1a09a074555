/**
 * The real ports of a backfill: the nightly's own pipeline for each night (its cut-off, no
 * detection), the target's commit selection, detection over the history, issues through the
 * nightly's publishing.
 *
 * @module
 */
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { detectRegressions } from '../detect/run.js';
import type { HistoryStore } from '../history/store.js';
import type { Log } from '../log.js';
import { describePublishResult, detectAndPublish, publishFailure } from '../nightly/issues.js';
import { nightlyPorts, runNightly } from '../nightly/run-nightly.js';
import { nightCutoff } from '../night.js';
import { selectTargetCommits } from '../target/git-target.js';
import type { BackfillPorts } from './run-backfill.js';

export interface BackfillBinding {
  shard?: string;
  signal: AbortSignal;
  /** Set when GitHub kept failing during --issues: the text went to files, the episodes stay. */
  onPublishFailure(error: Error): void;
}

export function backfillPorts(loaded: LoadedConfig, store: HistoryStore, log: Log, binding: BackfillBinding): BackfillPorts {
  const { config } = loaded;
  const workdir = path.resolve(loaded.baseDir, config.workdir);
  return {
    async recordNight(night) {
      const execute = { night, signal: binding.signal, shard: binding.shard };
      return (await runNightly(nightlyPorts(loaded, store, log, execute), { detect: false })).reports;
    },
    async commitsOf(night) {
      if (config.target.kind !== 'git') return [];
      const quiet = { ...log, info: log.debug };
      return (await selectTargetCommits(config.target, { workdir, baseDir: loaded.baseDir, cutoff: nightCutoff(night, config.target.cutoff), log: quiet })).map((c) => c.commit);
    },
    judgeNight: (night) => detectRegressions(store, config.detection, { now: night }).openedIds,
    markFoundInBackfill: (ids) => void store.episodes.markEpisodesFound(ids, 'backfill'),
    async publishIssues(lastNight) {
      const published = await detectAndPublish(loaded, store, log, { night: lastNight });
      log.info(describePublishResult(published, false));
      const failure = publishFailure(published);
      if (failure) binding.onPublishFailure(failure);
    },
    interrupted: () => binding.signal.aborted,
    now: () => Date.now(),
    log,
  };
}
